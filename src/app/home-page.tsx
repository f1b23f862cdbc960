import { useInfiniteQuery } from "@tanstack/react-query";
import { Redirect } from "wouter";
import { loadedSessions, sessionQueries } from "../api/session-queries";
import { QueryError } from "../components/query-error";

/** `/`: open the session with the newest activity, or explain how to start one. */
export function HomePage() {
  const sessions = useInfiniteQuery(sessionQueries.list());
  if (sessions.isPending) {
    return <p className="m-auto text-sm text-slate-500 dark:text-slate-400">Loading sessions…</p>;
  }
  if (sessions.isError) {
    return (
      <div className="m-auto">
        <QueryError
          title="Couldn't load sessions"
          error={sessions.error}
          onRetry={() => sessions.refetch()}
        />
      </div>
    );
  }
  const newest = loadedSessions(sessions.data)[0];
  if (newest) return <Redirect to={`/w/${newest.workspace_id}/s/${newest.id}`} replace />;
  return (
    <div className="m-auto max-w-md p-6 text-center">
      <h1 className="text-lg font-semibold">No sessions yet</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
        Start one with “New session” to watch an agent work and compact its context.
      </p>
    </div>
  );
}
