import { Link } from "wouter";
import { useSessionPhase } from "../../api/use-session-phase";
import { isArchived, type Session } from "../../contract/session";
import { requestFocus } from "../../lib/focus-request";
import { PHASE_STATUS } from "../../lib/session-phase";
import { approvalBadge } from "./session-approval";
import {
  type SessionStatus,
  sessionHref,
  sessionLabel,
  sessionStatus,
} from "./session-sidebar-view";
import { StatusBadge } from "./status-badge";

/**
 * The open session's link reads the same phase as the page's header (the session detail,
 * which the open stream keeps current, the transcript's running compaction, the stream's
 * "Reconnecting…"), so the sidebar and the header never disagree; the list is polled and
 * can lag it by a few seconds. It never fetches: the session page does.
 */
export function OpenSessionLink({
  session,
  unreachable,
  onNavigate,
}: {
  session: Session;
  unreachable: boolean;
  onNavigate: () => void;
}) {
  const reading = useSessionPhase(
    { workspaceId: session.workspace_id ?? "", sessionId: session.id },
    { fetch: false, fallback: session, unreachable },
  );
  const shown = reading.session ?? session;
  const status = reading.phase ? PHASE_STATUS[reading.phase] : sessionStatus(shown);
  return <SessionLink session={shown} status={status} active onNavigate={onNavigate} />;
}

/** One session in the sidebar: label, agent and its state in words, the header's words. */
export function SessionLink({
  session,
  status,
  active,
  onNavigate,
}: {
  session: Session;
  status: SessionStatus;
  active: boolean;
  onNavigate: () => void;
}) {
  const approval = approvalBadge(session);
  return (
    <Link
      href={sessionHref(session)}
      onClick={() => {
        // Focus would fall to <body> as the list re-renders: the new page's h1 takes it.
        if (!active) requestFocus("session-heading");
        onNavigate();
      }}
      aria-current={active ? "page" : undefined}
      className={`block rounded-md px-2 py-1.5 text-sm ${
        active
          ? "bg-cyan-50 ring-1 ring-cyan-600 dark:bg-cyan-950/60 dark:ring-cyan-500"
          : "hover:bg-slate-100 dark:hover:bg-slate-800"
      }`}
    >
      <span className="flex min-w-0 items-center gap-2">
        <span className="min-w-0 flex-1 truncate font-medium">{sessionLabel(session)}</span>
        <StatusBadge status={status} className="text-[11px]" />
      </span>
      {approval ? (
        <span className="mt-0.5 inline-flex items-center gap-1 rounded-full border border-amber-600 bg-amber-50 px-1.5 text-[11px] leading-4 font-semibold text-amber-900 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-200">
          <span aria-hidden="true">⚠</span>
          {approval}
        </span>
      ) : null}
      <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
        {session.agent_name}
        {isArchived(session) ? " · Archived" : ""}
      </span>
    </Link>
  );
}
