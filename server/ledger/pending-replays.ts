// The replay a rebuilt session still owes its agent (ADR 0086). One row per session: a
// newer rebuild replaces it, delivery deletes it. A failed delete is the caller's to log;
// the row then stays, so the replay is delivered again rather than lost.
import type Database from "better-sqlite3";
import type { PendingReplayStore } from "../domain/session-recorder-api";

type Row = {
  session_id: string;
  acp_session_id: string;
  reason: string;
  text: string;
  created_at: string;
};

export function createPendingReplayStore(
  db: Database.Database,
  now: () => Date,
): PendingReplayStore {
  const upsert = db.prepare(
    `INSERT INTO pending_replays (session_id, acp_session_id, reason, text, created_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (session_id) DO UPDATE SET acp_session_id = excluded.acp_session_id,
       reason = excluded.reason, text = excluded.text, created_at = excluded.created_at`,
  );
  const byId = db.prepare<[string], Row>(
    "SELECT session_id, acp_session_id, reason, text, created_at FROM pending_replays WHERE session_id = ?",
  );
  const remove = db.prepare("DELETE FROM pending_replays WHERE session_id = ?");
  return {
    put(replay) {
      upsert.run(
        replay.sessionId,
        replay.acpSessionId,
        replay.reason,
        replay.text,
        now().toISOString(),
      );
    },
    get(sessionId) {
      const row = byId.get(sessionId);
      if (row === undefined) return undefined;
      return {
        sessionId: row.session_id,
        acpSessionId: row.acp_session_id,
        reason: row.reason,
        text: row.text,
        createdAt: row.created_at,
      };
    },
    clear(sessionId) {
      remove.run(sessionId);
    },
  };
}
