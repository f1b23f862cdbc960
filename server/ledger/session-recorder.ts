// Every write to a session: one SQLite transaction per call that appends the ledger rows
// and updates every projection they touch, then tells listeners after the commit (the
// write path: `ledger-writer.ts`). Validation of agent frames and the compaction rules
// live in `server/domain/`; each call here decides which rows to append: the agent's
// messages in `agent-rows.ts` (compaction frames: `compaction-recording.ts`), the
// person's prompts and the session's own events below.
import type Database from "better-sqlite3";
import type { PromptAdmission, SessionRecorder } from "../domain/session-recorder-api";
import { agentCalls } from "./agent-rows";
import { createCompactionRecording } from "./compaction-recording";
import { type Content, createLedgerWriter, defined, type LedgerWriter } from "./ledger-writer";

type Admit = (sessionId: string, turnId: string | null, admission: PromptAdmission) => void;
type RecordRows = LedgerWriter["record"];

/** A prompt's idempotency key, stored in the transaction that records its turn. */
function admissionWriter(db: Database.Database, now: () => Date): Admit {
  const insertAdmission = db.prepare(
    `INSERT INTO prompt_admissions (session_id, idempotency_key, message_id, fingerprint,
       turn_id, result, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  return (sessionId, turnId, admission) => {
    insertAdmission.run(
      sessionId,
      admission.idempotency_key,
      admission.message_id,
      admission.fingerprint,
      turnId,
      JSON.stringify(admission.result),
      now().toISOString(),
    );
  };
}

/** What the person asks for: inputs, prompts under a key, Compact now, and a turn's end. */
function promptCalls(
  record: RecordRows,
  admit: Admit,
): Pick<
  SessionRecorder,
  "recordInput" | "recordPrompt" | "recordCompactionRequested" | "recordPromptCompleted"
> {
  return {
    recordInput(sessionId, turnId, text, options) {
      return record(sessionId, turnId, (append) => {
        append("input", options?.maintenance ? { text, maintenance: true } : { text });
      });
    },
    recordPrompt(sessionId, turnId, text, admission) {
      return record(sessionId, turnId, (append) => {
        // Same transaction as the input row: a prompt is either recorded with its key or
        // not at all, so a retry can never find the key without the turn (or the reverse).
        admit(sessionId, turnId, admission);
        append("input", { text, message_id: admission.message_id });
      });
    },
    recordCompactionRequested(sessionId, turnId, request, admission) {
      return record(sessionId, turnId, (append) => {
        if (admission !== undefined) {
          admit(sessionId, turnId, admission);
        }
        append("session.compaction.requested", {
          session_id: sessionId,
          command: request.command,
          requested_by: request.requested_by,
        });
        const typed = request.typed;
        // The message carries who asked, so the transcript can say it (ADR 0121).
        const by = { requested_by: request.requested_by };
        append(
          "input",
          typed === undefined
            ? { text: `/${request.command}`, maintenance: true, ...by }
            : {
                text: typed.text,
                message_id: typed.message_id,
                maintenance: true,
                typed: true,
                ...by,
              },
        );
      });
    },
    recordPromptCompleted(sessionId, turnId, completion) {
      return record(sessionId, turnId, (append) => {
        append("prompt.completed", defined(completion));
      });
    },
  };
}

/** The session's own events, one row each: its state, mode set, replay, permissions. */
function sessionCalls(
  record: RecordRows,
): Pick<
  SessionRecorder,
  | "recordState"
  | "recordModeSet"
  | "recordReplayCarried"
  | "recordPermissionRequested"
  | "recordPermissionResolved"
  | "recordPermission"
> {
  const one = (sessionId: string, turnId: string | null, type: string, content: Content) =>
    record(sessionId, turnId, (append) => {
      append(type, content);
    });
  return {
    recordState: (sessionId, state, reason) =>
      one(sessionId, null, "session.state", reason === undefined ? { state } : { state, reason }),
    recordModeSet: (sessionId, modeId) =>
      one(sessionId, null, "session.mode", { current_mode_id: modeId, source: "client" }),
    recordReplayCarried: (sessionId, carried) =>
      one(sessionId, null, "session.replay_carried", carried),
    recordPermissionRequested: (sessionId, turnId, request) =>
      one(sessionId, turnId, "permission.requested", defined(request)),
    recordPermissionResolved: (sessionId, turnId, resolution) =>
      one(sessionId, turnId, "permission.resolved", defined(resolution)),
    recordPermission: (sessionId, turnId, permission) =>
      one(sessionId, turnId, "permission", defined(permission)),
  };
}

export function createSessionRecorder(db: Database.Database, now: () => Date): SessionRecorder {
  const writer = createLedgerWriter(db, now);
  const record: RecordRows = writer.record;
  return {
    batch: writer.batch,
    onCommit: writer.onCommit,
    ...promptCalls(record, admissionWriter(db, now)),
    ...agentCalls(record, createCompactionRecording(db)),
    ...sessionCalls(record),
  };
}
