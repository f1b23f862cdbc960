import { useInfiniteQuery } from "@tanstack/react-query";
import { type ReactNode, type RefObject, useId, useRef, useState } from "react";
import { isApiError } from "../../api/http";
import { loadedSessions, sessionQueries } from "../../api/session-queries";
import {
  CATALOG_FALLBACK_POLL_MS,
  useSessionCatalogStream,
} from "../../api/use-session-catalog-stream";
import { Button } from "../../components/button";
import { QueryError } from "../../components/query-error";
import { Spinner } from "../../components/spinner";
import type { Session } from "../../contract/session";
import { NewSessionButton } from "./new-session-button";
import { OpenSessionLink, SessionLink } from "./session-link";
import { ContentHits, SessionSearchField } from "./session-search";
import { filterByName, workspacesOf } from "./session-search-view";
import { byNewestCreated, sessionStatus } from "./session-sidebar-view";

/**
 * The sessions, newest created first (a stable order; activity shows in the badges), a page at a time ("Show more sessions" follows the
 * daemon's cursor); beside the page on wide screens, collapsible above it on narrow ones.
 */
export function SessionSidebar({
  activeSessionId,
  actions,
}: {
  activeSessionId?: string;
  /** Controls beside the name in the top row (the page's Settings). */
  actions?: ReactNode;
}) {
  const catalog = useSessionCatalogStream();
  // Archived sessions are hidden unless asked for (the daemon's default leaves them out).
  const [showArchived, setShowArchived] = useState(false);
  const sessions = useInfiniteQuery({
    ...sessionQueries.list(showArchived ? "include" : "exclude"),
    refetchInterval: catalog === "live" ? false : CATALOG_FALLBACK_POLL_MS,
  });
  const loaded = loadedSessions(sessions.data);
  // The list is polled: when its last read could not reach the daemon, the rows' states
  // are the last known ones, not current ones.
  const unreachable = isApiError(sessions.error, "network");
  const [expanded, setExpanded] = useState(false);
  const [text, setText] = useState("");
  // The content search asked for with Enter; typing again goes back to names only.
  const [contentQuery, setContentQuery] = useState<string | undefined>(undefined);
  const shown = filterByName(loaded, text);
  const listId = useId();
  const collapse = () => setExpanded(false);
  const toggle = useRef<HTMLButtonElement>(null);
  return (
    <nav
      aria-label="Sessions"
      // Escape closes the narrow screen's session list and returns to its toggle (and so
      // does not also stop a running turn).
      onKeyDown={(event) => {
        if (event.key !== "Escape" || !expanded) return;
        event.preventDefault();
        collapse();
        toggle.current?.focus();
      }}
      className="flex shrink-0 flex-col border-b border-slate-200 bg-slate-50 lg:w-72 lg:border-r lg:border-b-0 dark:border-slate-800 dark:bg-slate-900/60"
    >
      <SidebarTopRow
        toggle={toggle}
        expanded={expanded}
        listId={listId}
        onToggle={() => setExpanded(!expanded)}
        actions={actions}
      />
      <div
        id={listId}
        className={`min-h-0 flex-1 flex-col gap-2 px-3 pb-3 lg:flex ${expanded ? "flex" : "hidden"}`}
      >
        <NewSessionButton onCreated={collapse} />
        <ShowArchived checked={showArchived} onChange={setShowArchived} />
        {loaded.length > 0 ? (
          <SessionSearchField
            text={text}
            onText={(next) => {
              setText(next);
              setContentQuery(undefined);
            }}
            onSubmit={() => setContentQuery(text.trim())}
          />
        ) : null}
        {sessions.isPending ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">Loading sessions…</p>
        ) : sessions.data === undefined ? (
          <QueryError
            title="Couldn't load sessions"
            error={sessions.error}
            onRetry={() => sessions.refetch()}
          />
        ) : loaded.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No sessions yet.</p>
        ) : (
          // The padding keeps the links' focus rings inside the scroll box, which clips them.
          <div className="-m-1 min-h-0 space-y-2 overflow-y-auto p-1 max-lg:max-h-[50vh]">
            <SessionRows
              sessions={byNewestCreated(shown)}
              activeSessionId={activeSessionId}
              unreachable={unreachable}
              onNavigate={collapse}
            />
            {contentQuery !== undefined ? (
              <ContentHits
                q={contentQuery}
                workspaceIds={workspacesOf(loaded)}
                onNavigate={collapse}
              />
            ) : null}
            <MoreSessions sessions={sessions} />
          </div>
        )}
      </div>
    </nav>
  );
}

/** "Show more sessions" while the daemon's cursor has more, and why a page failed. */
function MoreSessions({
  sessions,
}: {
  sessions: {
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    isFetchNextPageError: boolean;
    error: Error | null;
    fetchNextPage: () => Promise<unknown>;
  };
}) {
  return (
    <>
      {sessions.hasNextPage ? (
        <Button
          size="sm"
          className="w-full"
          disabled={sessions.isFetchingNextPage}
          onClick={() => void sessions.fetchNextPage()}
        >
          {sessions.isFetchingNextPage ? <Spinner /> : null}
          Show more sessions
        </Button>
      ) : null}
      {sessions.isFetchNextPageError ? (
        <p role="alert" className="text-xs text-red-800 dark:text-red-300">
          Couldn't load more sessions: {sessions.error?.message}
        </p>
      ) : null}
    </>
  );
}

/** The name, the narrow screen's Sessions toggle, and the page's controls (Settings). */
function SidebarTopRow({
  toggle,
  expanded,
  listId,
  onToggle,
  actions,
}: {
  toggle: RefObject<HTMLButtonElement | null>;
  expanded: boolean;
  listId: string;
  onToggle: () => void;
  actions: ReactNode;
}) {
  return (
    <div className="flex items-center gap-2 px-3 py-2">
      <p className="font-semibold tracking-tight">Tideline</p>
      <button
        ref={toggle}
        type="button"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={onToggle}
        className="ml-auto rounded-md border border-slate-300 px-2 py-0.5 text-sm lg:hidden dark:border-slate-600"
      >
        Sessions <span aria-hidden="true">{expanded ? "▴" : "▾"}</span>
      </button>
      {actions ? <div className="flex items-center lg:ml-auto">{actions}</div> : null}
    </div>
  );
}

/** Archived sessions are left out of the list unless this is ticked. */
function ShowArchived({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2 text-sm">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="size-4 accent-cyan-700 dark:accent-cyan-500"
      />
      <label htmlFor={id}>Show archived</label>
    </div>
  );
}

function SessionRows({
  sessions,
  activeSessionId,
  unreachable,
  onNavigate,
}: {
  sessions: readonly Session[];
  activeSessionId: string | undefined;
  unreachable: boolean;
  onNavigate: () => void;
}) {
  if (sessions.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-400">No session is named so.</p>;
  }
  return (
    <ul className="space-y-1">
      {sessions.map((session) => (
        <li key={session.id}>
          {session.id === activeSessionId ? (
            <OpenSessionLink session={session} unreachable={unreachable} onNavigate={onNavigate} />
          ) : (
            <SessionLink
              session={session}
              status={sessionStatus(session, { offline: unreachable, compacting: false })}
              active={false}
              onNavigate={onNavigate}
            />
          )}
        </li>
      ))}
    </ul>
  );
}
