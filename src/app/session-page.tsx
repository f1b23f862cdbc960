import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { isApiError } from "../api/http";
import { type SessionRef, sessionQueries } from "../api/session-queries";
import { useSessionStream } from "../api/use-session-stream";
import { SessionAgentControls } from "../features/agent/session-agent-controls";
import { ContextMeterCompact } from "../features/context/context-meter-compact";
import { ContextRail } from "../features/context/context-rail";
import { DeriveSession } from "../features/sessions/derive-session";
import { SessionHeader } from "../features/sessions/session-header";
import { SessionLineage } from "../features/sessions/session-lineage";
import { SessionTabTitle } from "../features/sessions/session-tab-title";
import { Composer } from "../features/timeline/composer";
import { SessionTimeline } from "../features/timeline/session-timeline";
import { useMediaQuery, WIDE_LAYOUT } from "../lib/use-media-query";
import { ContextSheet } from "./context-sheet";

/**
 * One session: the header, the live timeline and composer, and the context rail — beside
 * them on wide screens, a sheet opened from the header's meter on narrow ones (below a
 * long transcript it could not be reached). A session the daemon does not know (a stale
 * link) is said so once, instead of three failed reads and a stream reconnecting forever.
 */
export function SessionPage({ session }: { session: SessionRef }) {
  const detail = useQuery(sessionQueries.detail(session));
  if (isApiError(detail.error, "not_found")) return <SessionNotFound />;
  return <LiveSession session={session} />;
}

function LiveSession({ session }: { session: SessionRef }) {
  const stream = useSessionStream(session);
  const wide = useMediaQuery(WIDE_LAYOUT);
  const [sheetOpen, setSheetOpen] = useState(false);
  const offline = stream.state === "reconnecting";
  const rail = (
    <aside aria-label="Context" className="lg:overflow-y-auto">
      <DeriveSession session={session} />
      <ContextRail session={session} offline={offline} />
    </aside>
  );
  return (
    <div className="flex min-h-0 flex-1 flex-col lg:flex-row">
      <main className="flex min-h-0 min-w-0 flex-1 flex-col" aria-label="Session timeline">
        <SessionHeader
          session={session}
          meter={
            wide ? (
              <ContextMeterCompact session={session} />
            ) : (
              <ContextMeterCompact
                session={session}
                onOpen={() => setSheetOpen(true)}
                sheetOpen={sheetOpen}
              />
            )
          }
        />
        <SessionLineage session={session} />
        <SessionTabTitle session={session} />
        <SessionTimeline session={session} stream={stream} />
        <SessionAgentControls session={session} />
        <Composer session={session} offline={offline} />
      </main>
      {wide ? (
        <div className="flex w-80 shrink-0 flex-col border-l border-slate-200 dark:border-slate-800">
          {rail}
        </div>
      ) : (
        <ContextSheet open={sheetOpen} onClose={() => setSheetOpen(false)}>
          {rail}
        </ContextSheet>
      )}
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
