import type { SessionRef } from "../../api/session-queries";

export function Composer(_props: { session: SessionRef }) {
  return <div className="border-t border-slate-200 p-3 dark:border-slate-800" />;
}
