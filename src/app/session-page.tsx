import { useQuery } from "@tanstack/react-query";
import { isApiError } from "../api/http";
import { type SessionRef, sessionQueries } from "../api/session-queries";
import { useSessionStream } from "../api/use-session-stream";
import { SessionAgentControls } from "../features/agent/session-agent-controls";
import { ContextRail } from "../features/context/context-rail";
import { DeriveSession } from "../features/sessions/derive-session";
import { SessionHeader } from "../features/sessions/session-header";
import { SessionTabTitle } from "../features/sessions/session-tab-title";
import { Composer } from "../features/timeline/composer";
import { SessionTimeline } from "../features/timeline/session-timeline";

/**
 * One session: the live timeline and composer, with the context rail beside them on wide
 * screens. On narrow ones the page scrolls: the timeline keeps (almost) a screen's height and
 * the rail follows below it. A session the daemon does not know (a stale link) is said so
 * once, instead of three failed reads and a stream reconnecting forever.
 */
export function SessionPage({ session }: { session: SessionRef }) {
  const detail = useQuery(sessionQueries.detail(session));
  if (isApiError(detail.error, "not_found")) return <SessionNotFound />;
  return <LiveSession session={session} />;
}

function LiveSession({ session }: { session: SessionRef }) {
  const stream = useSessionStream(session);
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-y-auto lg:flex-row lg:overflow-hidden">
      <main
        className="flex h-[calc(100dvh-3rem)] min-h-80 min-w-0 shrink-0 flex-col lg:h-auto lg:min-h-0 lg:flex-1 lg:shrink"
        aria-label="Session timeline"
      >
        <SessionTabTitle session={session} />
        <SessionHeader session={session} />
        <SessionTimeline session={session} stream={stream} />
        <SessionAgentControls session={session} />
        <Composer session={session} />
      </main>
      <aside
        className="border-t border-slate-200 lg:w-80 lg:shrink-0 lg:overflow-y-auto lg:border-t-0 lg:border-l dark:border-slate-800"
        aria-label="Context"
      >
        <DeriveSession session={session} />
        <ContextRail session={session} />
      </aside>
    </div>
  );
}

function SessionNotFound() {
  return (
    <main aria-label="Session not found" className="m-auto max-w-md p-6 text-center">
      <h1 className="text-lg font-semibold">Session not found</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
        The daemon has no session at this address. Pick one from the list, or start a new one.
      </p>
    </main>
  );
}
