import type { ReactNode } from "react";
import { useRenameSessionMutation } from "../../api/session-mutations";
import type { SessionRef } from "../../api/session-queries";
import { useSessionPhase } from "../../api/use-session-phase";
import { PHASE_STATUS } from "../../lib/session-phase";
import { ExportSession } from "./export-session";
import { SessionActions } from "./session-actions";
import { pendingApprovals } from "./session-approval";
import { headerTitle } from "./session-header-view";
import { SessionName } from "./session-name";
import { StatusBadge } from "./status-badge";
import { StopSession } from "./stop-session";
import { showsStopSession } from "./stop-session-view";

/**
 * The top of a session: its name (the page's h1; Rename edits it in place), agent and
 * state, Stop session while it runs, Export, and a compact context figure (`meter`, supplied by the
 * page) that on narrow screens opens the context sheet. The stream's "Reconnecting…" lives
 * here, where it covers nothing.
 */
export function SessionHeader({ session, meter }: { session: SessionRef; meter: ReactNode }) {
  // The same phase the sidebar, Compact now and the composer read (`sessionPhase`).
  const { session: current, phase } = useSessionPhase(session);
  const rename = useRenameSessionMutation(session);
  const state = phase ? PHASE_STATUS[phase] : undefined;
  return (
    <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-200 px-3 py-2 sm:px-4 dark:border-slate-800">
      {/* At least 10rem: at 360 px, Stop session and the meter wrap below rather than squeeze the name to nothing. */}
      <div className="min-w-40 flex-1">
        <SessionName
          title={headerTitle(current)}
          onRename={current ? (name) => rename.mutateAsync(name) : undefined}
        />
        <p className="flex min-w-0 items-center gap-2 text-xs text-slate-600 dark:text-slate-300">
          {current ? <span className="truncate">{current.agent_name}</span> : null}
          {state ? <StatusBadge role="status" status={state} /> : null}
        </p>
      </div>
      {phase && showsStopSession(phase, current?.state) ? (
        <StopSession session={session} phase={phase} approvals={pendingApprovals(current)} />
      ) : null}
      <ExportSession session={session} />
      <SessionActions session={session} current={current} />
      {meter}
    </header>
  );
}
