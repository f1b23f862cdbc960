// Follows one turn until it ends: the session stream wakes the follower whenever the
// session changes, and each wake reads the turn's new events (`…/events?turn_id=`), so
// what it returns is the turn's own event log, in sequence order (ADR 0083). A slow
// poll covers a stream that cannot be opened or goes quiet.
import { createParser } from "eventsource-parser";
import { EventList, type SessionEvent } from "../src/contract/history";
import type { DaemonClient } from "./daemon-client";

/** Event types that close a turn: the reference daemon's and CompozyOS's. */
const TURN_END_TYPES = new Set(["prompt.completed", "done", "agent.exited", "session_stopped"]);

const POLL_MS = 1000;
/** How often, without an end event, the follower asks whether the turn still runs. */
const SESSION_CHECK_EVERY = 5;
const PAGE = 1000;

export type FollowedTurn = { events: SessionEvent[]; endedBy: string };

type Wakeable = { wait(ms: number): Promise<void>; close(): void };

/** A wake-up signal from the session's SSE stream; without one, plain sleeps. */
async function openWakeups(
  client: DaemonClient,
  streamPath: string,
  turnId: string,
): Promise<Wakeable> {
  const abort = new AbortController();
  let wake: (() => void) | undefined;
  let pending = false;
  const signal = () => {
    pending = true;
    wake?.();
  };
  async function open(query: string): Promise<Response | undefined> {
    try {
      const response = await fetch(`${client.base}${streamPath}${query}`, {
        headers: client.headers({ Accept: "text/event-stream" }),
        signal: abort.signal,
      });
      if (response.ok && response.body) return response;
      await response.body?.cancel();
    } catch {
      // No stream: polling alone still ends the follow.
    }
    return undefined;
  }
  // CompozyOS streams the turn's raw events; a daemon without raw frames refuses the
  // query (400) and serves its transcript stream, which changes whenever the turn does.
  const response =
    (await open(`?frames=raw&turn_id=${encodeURIComponent(turnId)}`)) ?? (await open(""));
  if (response?.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    // Any event wakes the follower; a keepalive comment is not an event.
    const parser = createParser({ onEvent: signal });
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch {
        // Aborted or dropped: the poll carries on.
      }
    })();
  }
  return {
    wait(ms) {
      if (pending) {
        pending = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          pending = false;
          resolve();
        }
        wake = done;
      });
    },
    close: () => abort.abort(),
  };
}

export async function followTurn(
  client: DaemonClient,
  sessionId: string,
  turnId: string,
  onEvent?: (event: SessionEvent) => void,
): Promise<FollowedTurn> {
  const eventsPath = await client.sessionPath(sessionId, "/events");
  const wakeups = await openWakeups(client, await client.sessionPath(sessionId, "/stream"), turnId);
  const events: SessionEvent[] = [];
  let after: number | undefined;
  let idle = false;
  try {
    for (let round = 1; ; round += 1) {
      // Read every new event of the turn (page by page when there are many).
      for (;;) {
        const params = new URLSearchParams({ turn_id: turnId, limit: String(PAGE) });
        if (after !== undefined) params.set("after_sequence", String(after));
        const page = await client.get(EventList, `${eventsPath}?${params}`);
        const fresh = page.events
          .filter((event) => after === undefined || event.sequence > after)
          .sort((a, b) => a.sequence - b.sequence);
        for (const event of fresh) {
          events.push(event);
          onEvent?.(event);
          after = Math.max(after ?? 0, event.sequence);
        }
        const end = fresh.find((event) => TURN_END_TYPES.has(event.type));
        if (end !== undefined) return { events, endedBy: end.type };
        if (fresh.length < PAGE) break;
      }
      if (idle) return { events, endedBy: "session" };
      // Checked before one last read, so an end event written meanwhile is still seen.
      if (round % SESSION_CHECK_EVERY === 0 && !(await stillRunning(client, sessionId, turnId))) {
        idle = true;
        continue;
      }
      await wakeups.wait(POLL_MS);
    }
  } finally {
    wakeups.close();
  }
}

/** Whether the session still reports this turn as running (a lost end event must not hang us). */
async function stillRunning(
  client: DaemonClient,
  sessionId: string,
  turnId: string,
): Promise<boolean> {
  const session = await client.findSession(sessionId, { fresh: true }).catch(() => undefined);
  if (session === undefined) return false;
  if (session.state !== "active") return false;
  return session.activity?.turn_id === turnId;
}
