import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { compactSessionMutation } from "../../api/compact-session";
import { followRefusal, type Refusal, refusalOf } from "../../api/refusal-words";
import type { SessionRef } from "../../api/session-queries";
import { isMissingEndpoint } from "../../api/usage-queries";
import { useSessionPhase } from "../../api/use-session-phase";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import type { Session } from "../../contract/session";
import { COMPACT_COPY, deriveCompactButton, refusalMessage } from "./compact-now-view";

/**
 * Compact now: always on screen; disabled with the reason when it cannot be pressed (an
 * agent without a compaction command included), refused out loud.
 * A daemon without `…/compact` (404) takes the button away rather than failing each press.
 */
export function CompactNow({
  session,
  detail,
  offline = false,
}: {
  session: SessionRef;
  detail: Session;
  /** The stream is down: a request could not be followed, so the button waits. */
  offline?: boolean;
}) {
  const queryClient = useQueryClient();
  const mutation = useMutation(compactSessionMutation(queryClient, session));
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const reasonId = useId();

  // Adjusting state while rendering (not in an effect): the refusal ends with its turn.
  const now = { turnId: detail.activity?.turn_id || undefined, state: detail.state };
  const followed = followRefusal(refusal, now);
  if (followed !== refusal) setRefusal(followed);

  // The phase every surface reads: "compacting" as soon as the transcript says so, and
  // enabled again as soon as it says the compaction ended.
  const { phase } = useSessionPhase(session);
  const view = deriveCompactButton(
    detail,
    mutation.isPending,
    offline || phase === "offline",
    phase === "compacting",
  );
  if (isMissingEndpoint(mutation.error)) return null;

  const request = () => {
    setRefusal(null);
    mutation.mutate(undefined, {
      onError: (error) => setRefusal({ ...refusalOf(error, now), message: refusalMessage(error) }),
    });
  };

  return (
    <div className="flex flex-col items-start gap-1.5">
      {/* aria-disabled, not disabled: a disabled button drops keyboard focus to <body> the
          moment it is pressed (it is in flight, then a turn runs), losing the reader's place. */}
      <Button
        tone="primary"
        onClick={view.disabled ? undefined : request}
        aria-disabled={view.disabled || undefined}
        aria-busy={view.busy}
        title={view.reason}
        aria-describedby={view.reason ? reasonId : undefined}
      >
        {view.busy ? <Spinner /> : null}
        {COMPACT_COPY.label}
      </Button>
      {view.reason ? (
        <p id={reasonId} className="text-xs text-slate-600 dark:text-slate-300">
          {view.reason}
        </p>
      ) : null}
      {followed ? (
        <p
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 px-2 py-1 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100"
        >
          {followed.message}
        </p>
      ) : null}
    </div>
  );
}
