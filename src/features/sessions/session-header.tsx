import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useRenameSessionMutation, useStopSessionMutation } from "../../api/session-mutations";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import type { StreamState } from "../../api/session-stream";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { headerState, headerTitle } from "./session-header-view";
import { SessionName } from "./session-name";
import { StatusBadge } from "./status-badge";

/**
 * The top of a session: its name (the page's h1; Rename edits it in place), agent and
 * state, Stop session while it runs, and a compact context figure (`meter`, supplied by the
 * page) that on narrow screens opens the context sheet. The stream's "Reconnecting…" lives
 * here, where it covers nothing.
 */
export function SessionHeader({
  session,
  stream,
  meter,
}: {
  session: SessionRef;
  stream: StreamState;
  meter: ReactNode;
}) {
  const detail = useQuery(sessionQueries.detail(session));
  const rename = useRenameSessionMutation(session);
  const stop = useStopSessionMutation(session);
  const current = detail.data;
  const state = headerState(current, stream);
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
      {current && (current.state === "active" || current.state === "starting") ? (
        <Button size="sm" tone="danger" disabled={stop.isPending} onClick={() => stop.mutate()}>
          {stop.isPending ? <Spinner /> : null}
          Stop session
        </Button>
      ) : null}
      {meter}
      {stop.error ? (
        <p role="alert" className="w-full text-xs text-red-800 dark:text-red-300">
          {stop.error.message}
        </p>
      ) : null}
    </header>
  );
}
