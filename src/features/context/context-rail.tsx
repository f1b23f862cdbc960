import type { SessionRef } from "../../api/session-queries";

export function ContextRail(_props: { session: SessionRef }) {
  return <div className="p-4 text-sm">Context</div>;
}
