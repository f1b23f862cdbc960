// The prompt queue's table (ADR 0220). One row per queued send; `priority` puts steer and
// interrupt entries ahead of plain queued ones, `seq` keeps each group first in, first out.
import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import type {
  InputEdit,
  InputMode,
  NewSessionInput,
  SessionInput,
  SessionInputStore,
} from "../domain/session-inputs-api";

type Row = {
  id: string;
  session_id: string;
  text: string;
  mode: InputMode;
  delivery: SessionInput["delivery"];
  status: SessionInput["status"];
  message_id: string;
  idempotency_key: string;
  target_turn_id: string | null;
  enqueued_at: string;
  fingerprint: string;
  result: string;
};

function inputOf(row: Row): SessionInput {
  return {
    id: row.id,
    session_id: row.session_id,
    text: row.text,
    mode: row.mode,
    delivery: row.delivery,
    status: row.status,
    message_id: row.message_id,
    idempotency_key: row.idempotency_key,
    ...(row.target_turn_id === null ? {} : { target_turn_id: row.target_turn_id }),
    enqueued_at: row.enqueued_at,
    fingerprint: row.fingerprint,
    result: JSON.parse(row.result) as Record<string, unknown>,
  };
}

const bound = (change: InputEdit) => ({ ...change, result: JSON.stringify(change.result) });

const COLUMNS = `id, session_id, text, mode, delivery, status, message_id, idempotency_key,
  target_turn_id, enqueued_at, fingerprint, result`;

export function createSessionInputStore(db: Database.Database, now: () => Date): SessionInputStore {
  const insert = db.prepare(
    `INSERT INTO session_inputs (id, session_id, seq, priority, text, mode, delivery, status,
       message_id, idempotency_key, target_turn_id, enqueued_at, fingerprint, result)
     VALUES (@id, @session_id,
       (SELECT COALESCE(MAX(seq), 0) + 1 FROM session_inputs WHERE session_id = @session_id),
       @priority, @text, @mode, @delivery, 'queued', @message_id, @idempotency_key,
       @target_turn_id, @enqueued_at, @fingerprint, @result)`,
  );
  const pending = db.prepare<[string], Row>(
    `SELECT ${COLUMNS} FROM session_inputs WHERE session_id = ? AND status = 'queued'
     ORDER BY priority, seq`,
  );
  const one = db.prepare<[string, string], Row>(
    `SELECT ${COLUMNS} FROM session_inputs WHERE session_id = ? AND id = ?`,
  );
  const byKey = db.prepare<[string, string], Row>(
    `SELECT ${COLUMNS} FROM session_inputs WHERE session_id = ? AND idempotency_key = ?
     ORDER BY seq DESC LIMIT 1`,
  );
  const edit = db.prepare(
    `UPDATE session_inputs SET text = @text, message_id = @message_id,
       idempotency_key = @idempotency_key, fingerprint = @fingerprint, result = @result
     WHERE session_id = @session_id AND id = @id AND status = 'queued'`,
  );
  const promote = db.prepare(
    `UPDATE session_inputs SET text = @text, message_id = @message_id,
       idempotency_key = @idempotency_key, fingerprint = @fingerprint, result = @result,
       mode = 'steer', delivery = 'interrupt_then_prompt',
       priority = 0, target_turn_id = @target_turn_id,
       seq = (SELECT COALESCE(MAX(seq), 0) + 1 FROM session_inputs WHERE session_id = @session_id)
     WHERE session_id = @session_id AND id = @id AND status = 'queued'`,
  );
  const settle = db.prepare(
    "UPDATE session_inputs SET status = ? WHERE session_id = ? AND id = ? AND status = 'queued'",
  );
  const cancelQueued = db.prepare(
    `UPDATE session_inputs SET status = 'canceled'
     WHERE session_id = ? AND status = 'queued' AND mode = 'queue'`,
  );
  const get = (sessionId: string, id: string) => {
    const row = one.get(sessionId, id);
    return row === undefined ? undefined : inputOf(row);
  };

  return {
    enqueue(input: NewSessionInput) {
      const id = `qin_${randomUUID()}`;
      insert.run({
        id,
        session_id: input.session_id,
        priority: input.mode === "queue" ? 1 : 0,
        text: input.text,
        mode: input.mode,
        delivery: input.delivery,
        message_id: input.message_id,
        idempotency_key: input.idempotency_key,
        target_turn_id: input.target_turn_id ?? null,
        enqueued_at: now().toISOString(),
        fingerprint: input.fingerprint,
        result: JSON.stringify(input.result),
      });
      const stored = get(input.session_id, id);
      if (stored === undefined) throw new Error(`queued input ${id} vanished`);
      return stored;
    },
    pending: (sessionId) => pending.all(sessionId).map(inputOf),
    get,
    byKey(sessionId, key) {
      const row = byKey.get(sessionId, key);
      return row === undefined ? undefined : inputOf(row);
    },
    edit(sessionId, id, change) {
      const done = edit.run({ ...bound(change), session_id: sessionId, id }).changes > 0;
      return done ? get(sessionId, id) : undefined;
    },
    promote(sessionId, id, targetTurnId, change) {
      const done =
        promote.run({ ...bound(change), session_id: sessionId, id, target_turn_id: targetTurnId })
          .changes > 0;
      return done ? get(sessionId, id) : undefined;
    },
    settle: (sessionId, id, status) => settle.run(status, sessionId, id).changes > 0,
    cancelQueued: (sessionId) => cancelQueued.run(sessionId).changes,
  };
}
