import { useInfiniteQuery } from "@tanstack/react-query";
import { Redirect } from "wouter";
import { loadedSessions, sessionQueries } from "../api/session-queries";
import { QueryError } from "../components/query-error";

/** `/`: open the session with the newest activity, or explain how to start one. */
export function HomePage() {
  const sessions = useInfiniteQuery(sessionQueries.list());
  if (sessions.isPending) {
    return (
      <main aria-label="Tideline" className="m-auto">
        <h1 className="text-sm font-normal text-slate-600 dark:text-slate-300">
          Loading sessions…
        </h1>
      </main>
    );
  }
  if (sessions.isError) {
    return (
      <main aria-label="Tideline" className="m-auto">
        <h1 className="sr-only">Tideline</h1>
        <QueryError
          title="Couldn't load sessions"
          error={sessions.error}
          onRetry={() => sessions.refetch()}
        />
      </main>
    );
  }
  const newest = loadedSessions(sessions.data)[0];
  if (newest) return <Redirect to={`/w/${newest.workspace_id}/s/${newest.id}`} replace />;
  return (
    <main aria-label="Tideline" className="m-auto max-w-md p-6 text-center">
      <h1 className="text-lg font-semibold">No sessions yet</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
        Start one with “New session” to watch an agent work and compact its context.
      </p>
    </main>
  );
}
