// Tells the person what happened in a session they are not looking at (ADR 0241): the tab
// is hidden, or another session is open. From each new reading of the session list (its
// stream or its poll) it finds the events; each one counts in the tab's title and icon until
// that session is looked at, and becomes a desktop notification when the person turned them
// on. Clicking one opens the session at its newest entry, where the event is.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { getJson, sessionPath } from "../../api/http";
import { loadedSessions, sessionQueries } from "../../api/session-queries";
import { CompactionMarker } from "../../contract/usage";
import { z } from "../../contract/zod";
import { usePreferences } from "../../lib/preferences";
import { type SessionEvent, type SessionMark, sessionEvents } from "../../lib/session-events";
import { showAttention } from "./attention-marks";
import { type CompactionOutcome, notificationWords } from "./notification-words";

const Markers = z.object({ compactions: z.array(CompactionMarker) });

/** The outcome of the compaction that ran in `turnId`, or undefined when none did. */
async function compactionIn(event: SessionEvent): Promise<CompactionOutcome | "none"> {
  if (event.workspaceId === undefined || event.turnId === undefined) return "none";
  try {
    const path = sessionPath(event.workspaceId, event.sessionId, "/usage/turns");
    const { compactions } = await getJson(path, Markers);
    const marker = compactions.findLast((candidate) => candidate.turn_id === event.turnId);
    if (marker === undefined) return "none";
    return marker.status === "failed" || marker.status === "cancelled"
      ? marker.status
      : "completed";
  } catch {
    // No markers to read (an older daemon): a Compact now turn still ended.
    return event.kind === "compaction" ? undefined : "none";
  }
}

export function useSessionNotifications(activeSessionId: string | undefined) {
  const sessions = useInfiniteQuery(sessionQueries.list());
  const [, navigate] = useLocation();
  const marks = useRef<Map<string, SessionMark> | undefined>(undefined);
  const unseen = useRef(new Map<string, number>());
  const active = useRef(activeSessionId);
  active.current = activeSessionId;

  useEffect(() => {
    const total = () => [...unseen.current.values()].reduce((sum, count) => sum + count, 0);
    const lookedAt = (sessionId: string) => !document.hidden && active.current === sessionId;
    const tell = (event: SessionEvent, outcome?: CompactionOutcome) => {
      const preferences = usePreferences.getState();
      if (!preferences.kinds[event.kind] || lookedAt(event.sessionId)) return;
      unseen.current.set(event.sessionId, (unseen.current.get(event.sessionId) ?? 0) + 1);
      showAttention(total());
      if (!preferences.desktop || typeof Notification === "undefined") return;
      if (Notification.permission !== "granted") return;
      const words = notificationWords(event, outcome);
      const note = new Notification(words.title, {
        body: words.body,
        tag: `${event.sessionId}:${event.kind}`,
      });
      note.onclick = () => {
        window.focus();
        if (event.workspaceId !== undefined)
          navigate(`/w/${event.workspaceId}/s/${event.sessionId}`);
        note.close();
      };
    };
    const announce = async (event: SessionEvent) => {
      if (event.kind !== "turn" && event.kind !== "compaction") return tell(event);
      // The markers are read only when a compaction would be told: not for the session the
      // person is looking at, nor when compactions are turned off.
      const kinds = usePreferences.getState().kinds;
      if (lookedAt(event.sessionId) || !kinds.compaction) return tell(event);
      const outcome = await compactionIn(event);
      if (outcome !== "none") tell({ ...event, kind: "compaction" }, outcome);
      if (event.kind === "turn") tell(event);
    };
    if (sessions.data === undefined) return;
    const found = sessionEvents(marks.current, loadedSessions(sessions.data));
    marks.current = found.marks;
    for (const event of found.events) void announce(event);
  }, [sessions.data, navigate]);

  // Looking at a session (its page open in a visible tab) clears what waited in it.
  useEffect(() => {
    const seen = () => {
      const current = activeSessionId;
      if (document.hidden || current === undefined || !unseen.current.has(current)) return;
      unseen.current.delete(current);
      showAttention([...unseen.current.values()].reduce((sum, count) => sum + count, 0));
    };
    seen();
    document.addEventListener("visibilitychange", seen);
    return () => document.removeEventListener("visibilitychange", seen);
  }, [activeSessionId]);
}
