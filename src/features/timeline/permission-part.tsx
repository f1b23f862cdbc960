import { useState } from "react";
import { useApproveMutation } from "../../api/agent-session-mutations";
import { refusalText } from "../../api/refusal-words";
import type { SessionRef } from "../../api/session-queries";
import { PermissionRequest } from "./permission-request";
import { approveBody, permissionView } from "./permission-view";
import { useTimelineSession } from "./timeline-session";

const IDLE = { sending: undefined, error: undefined, answeredHere: false };

/** A `data-compozy-permission` part: the approval row, answering through `POST …/approve`. */
export function PermissionPart({ data }: { data: Record<string, unknown> }) {
  const session = useTimelineSession();
  if (session === undefined) {
    return (
      <PermissionRequest view={permissionView(data)} state={IDLE} onChoose={() => undefined} />
    );
  }
  return <LivePermission session={session} data={data} />;
}

/** Kept mounted from pending to answered, so focus can follow an answer given here. */
function LivePermission({ session, data }: { session: SessionRef; data: Record<string, unknown> }) {
  const approve = useApproveMutation(session);
  const [answeredHere, setAnsweredHere] = useState(false);
  const view = permissionView(data);
  return (
    <PermissionRequest
      view={view}
      state={{
        sending: approve.isPending ? approve.variables?.decision : undefined,
        error: approve.error ? refusalText(approve.error) : undefined,
        answeredHere,
      }}
      onChoose={(option) => {
        approve.mutate(approveBody(view, option), { onSuccess: () => setAnsweredHere(true) });
      }}
    />
  );
}
