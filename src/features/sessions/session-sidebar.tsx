import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { sessionQueries } from "../../api/session-queries";
import { QueryError } from "../../components/query-error";
import { NewSessionButton } from "./new-session-button";
import { SessionLink } from "./session-link";
import { byNewestActivity } from "./session-sidebar-view";

/** The sessions, newest activity first; beside the page on wide screens, collapsible above it on narrow ones. */
export function SessionSidebar({ activeSessionId }: { activeSessionId?: string }) {
  const sessions = useQuery(sessionQueries.list());
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const collapse = () => setExpanded(false);
  return (
    <nav
      aria-label="Sessions"
      className="flex shrink-0 flex-col border-b border-slate-200 bg-slate-50 lg:w-72 lg:border-r lg:border-b-0 dark:border-slate-800 dark:bg-slate-900/60"
    >
      <div className="flex items-center gap-2 px-3 py-2">
        <p className="font-semibold tracking-tight">Tideline</p>
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded(!expanded)}
          className="ml-auto rounded-md border border-slate-300 px-2 py-0.5 text-sm lg:hidden dark:border-slate-600"
        >
          Sessions <span aria-hidden="true">{expanded ? "▴" : "▾"}</span>
        </button>
      </div>
      <div
        id={listId}
        className={`min-h-0 flex-1 flex-col gap-2 px-3 pb-3 lg:flex ${expanded ? "flex" : "hidden"}`}
      >
        <NewSessionButton onCreated={collapse} />
        {sessions.isPending ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">Loading sessions…</p>
        ) : sessions.isError ? (
          <QueryError
            title="Couldn't load sessions"
            error={sessions.error}
            onRetry={() => sessions.refetch()}
          />
        ) : sessions.data.sessions.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No sessions yet.</p>
        ) : (
          // The padding keeps the links' focus rings inside the scroll box, which clips them.
          <ul className="-m-1 min-h-0 space-y-1 overflow-y-auto p-1 max-lg:max-h-[50vh]">
            {byNewestActivity(sessions.data.sessions).map((session) => (
              <li key={session.id}>
                <SessionLink
                  session={session}
                  active={session.id === activeSessionId}
                  onNavigate={collapse}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </nav>
  );
}
