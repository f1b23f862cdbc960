// Every read model, answered from the projection tables or from indexed ranges of the
// ledger; nothing here re-folds history. Each family of reads has its own module, built
// once when the ledger opens: the transcript (`transcript-reader.ts`), events and history
// (`event-reader.ts`), the meter (`usage-reader.ts`) and the agent's newest word on the
// session (`agent-state-reader.ts`). A prompt's admission is read here.
import type Database from "better-sqlite3";
import type { SessionReader } from "../domain/session-recorder-api";
import { createAgentStateReader } from "./agent-state-reader";
import { createEventReader } from "./event-reader";
import { createTranscriptReader } from "./transcript-reader";
import { createUsageReader } from "./usage-reader";

export function createSessionReader(
  db: Database.Database,
  contextWindows: Readonly<Record<string, number>>,
): SessionReader {
  const admissionRow = db.prepare<
    [string, string],
    { message_id: string; fingerprint: string; turn_id: string; result: string }
  >(
    `SELECT message_id, fingerprint, turn_id, result FROM prompt_admissions
     WHERE session_id = ? AND idempotency_key = ?`,
  );
  return {
    ...createTranscriptReader(db),
    ...createUsageReader(db, contextWindows),
    ...createEventReader(db),
    ...createAgentStateReader(db),
    promptAdmission(sessionId, idempotencyKey) {
      const row = admissionRow.get(sessionId, idempotencyKey);
      if (row === undefined) return undefined;
      return {
        idempotency_key: idempotencyKey,
        message_id: row.message_id,
        fingerprint: row.fingerprint,
        turn_id: row.turn_id,
        result: JSON.parse(row.result) as Record<string, unknown>,
      };
    },
  };
}
