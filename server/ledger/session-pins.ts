// Pins (ADR 0165): the user messages a person asked the agent to keep across compactions.
// Stored per session as entry ids (the transcript message id) with the time they were
// pinned; only a user message of that session can be pinned, so a pin always names words
// the person wrote.
import type Database from "better-sqlite3";
import type { PinOutcome, SessionSettingsStore } from "../domain/session-recorder-api";

export type SessionPinsStore = Pick<
  SessionSettingsStore,
  "pin" | "unpin" | "pinsOf" | "pinnedEntryIdsOf"
>;

export function createSessionPinsStore(db: Database.Database, now: () => Date): SessionPinsStore {
  // The message id is the entry key (a primary-key lookup), its role is in the JSON.
  const roleOf = db
    .prepare<[string, string], string | null>(
      "SELECT json_extract(message, '$.role') FROM entries WHERE session_id = ? AND entry_key = ?",
    )
    .pluck(true);
  // Pinning twice keeps the first time: the pin is the same one.
  const insert = db.prepare(
    `INSERT INTO session_pins (session_id, entry_id, pinned_at) VALUES (?, ?, ?)
     ON CONFLICT (session_id, entry_id) DO NOTHING`,
  );
  const one = db.prepare<[string, string], { entry_id: string; pinned_at: string }>(
    "SELECT entry_id, pinned_at FROM session_pins WHERE session_id = ? AND entry_id = ?",
  );
  const remove = db.prepare("DELETE FROM session_pins WHERE session_id = ? AND entry_id = ?");
  const all = db.prepare<[string], { entry_id: string; pinned_at: string }>(
    "SELECT entry_id, pinned_at FROM session_pins WHERE session_id = ? ORDER BY pinned_at, entry_id",
  );
  const pinOnce = db.transaction((sessionId: string, entryId: string): PinOutcome => {
    const role = roleOf.get(sessionId, entryId);
    if (role === undefined) return { kind: "unknown_entry" };
    if (role !== "user") return { kind: "not_a_user_message" };
    insert.run(sessionId, entryId, now().toISOString());
    const row = one.get(sessionId, entryId);
    if (row === undefined) throw new Error(`pin ${entryId} vanished`);
    return { kind: "pinned", pin: row };
  });
  return {
    pin: (sessionId, entryId) => pinOnce.immediate(sessionId, entryId),
    unpin: (sessionId, entryId) => remove.run(sessionId, entryId).changes > 0,
    pinsOf: (sessionId) => all.all(sessionId),
    pinnedEntryIdsOf: (sessionId) => all.all(sessionId).map((row) => row.entry_id),
  };
}
