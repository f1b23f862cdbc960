import { Link } from "wouter";
import type { Session } from "../../contract/session";
import { approvalBadge } from "./session-approval";
import {
  activityText,
  type BadgeTone,
  STATE_BADGE,
  sessionHref,
  sessionLabel,
} from "./session-sidebar-view";

const BADGE_CLASSES: Record<BadgeTone, string> = {
  good: "border-emerald-600 text-emerald-800 dark:border-emerald-500 dark:text-emerald-300",
  busy: "border-cyan-600 text-cyan-800 dark:border-cyan-500 dark:text-cyan-300",
  warn: "border-amber-600 text-amber-800 dark:border-amber-500 dark:text-amber-300",
  muted: "border-slate-400 text-slate-600 dark:border-slate-500 dark:text-slate-300",
};

/** One session in the sidebar: label, agent, state badge (in words) and live activity. */
export function SessionLink({
  session,
  active,
  onNavigate,
}: {
  session: Session;
  active: boolean;
  onNavigate: () => void;
}) {
  const activity = activityText(session);
  const approval = approvalBadge(session);
  return (
    <Link
      href={sessionHref(session)}
      onClick={onNavigate}
      aria-current={active ? "page" : undefined}
      className={`block rounded-md px-2 py-1.5 text-sm ${
        active
          ? "bg-cyan-50 ring-1 ring-cyan-600 dark:bg-cyan-950/60 dark:ring-cyan-500"
          : "hover:bg-slate-100 dark:hover:bg-slate-800"
      }`}
    >
      <span className="flex min-w-0 items-center gap-2">
        <span className="min-w-0 flex-1 truncate font-medium">{sessionLabel(session)}</span>
        <span
          className={`shrink-0 rounded-full border px-1.5 text-[11px] leading-4 ${BADGE_CLASSES[STATE_BADGE[session.state]]}`}
        >
          {session.state}
        </span>
      </span>
      {approval ? (
        <span className="mt-0.5 inline-flex items-center gap-1 rounded-full border border-amber-600 bg-amber-50 px-1.5 text-[11px] leading-4 font-semibold text-amber-900 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-200">
          <span aria-hidden="true">⚠</span>
          {approval}
        </span>
      ) : null}
      <span className="flex min-w-0 gap-2 text-xs text-slate-600 dark:text-slate-400">
        <span className="truncate">{session.agent_name}</span>
        {activity ? (
          <span className="shrink-0 font-medium text-cyan-800 dark:text-cyan-300">{activity}</span>
        ) : null}
      </span>
    </Link>
  );
}
