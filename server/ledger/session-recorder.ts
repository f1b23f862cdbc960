// Every write to a session: one SQLite transaction per call that appends the ledger
// rows and updates every projection they touch, then tells listeners after the commit.
// Validation of agent frames and the compaction rules live in `server/domain/`; this
// module only decides which rows to append and keeps the compaction state persisted.
import type Database from "better-sqlite3";
import {
  type CompactionChunkFrame,
  type CompactionUpdateFrame,
  type ModelledUpdate,
  parseAcpUpdate,
} from "../domain/acp-update";
import {
  applyCompactionChunk,
  applyCompactionUpdate,
  type CompactionState,
  type CompactionStep,
  closeCompactionByDaemon,
} from "../domain/compaction-intake";
import type { CommitNotice, LedgerRow, SessionRecorder } from "../domain/session-recorder-api";
import { createTranscriptProjection } from "./transcript-projection";
import { createUsageProjection } from "./usage-projection";

type Content = Record<string, unknown>;

/** The rows of one transaction, appended with consecutive sequences. */
type Append = (type: string, content: Content) => LedgerRow;

function without<T extends Content>(value: T, key: string): Content {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

/** The row content as it will read back: keys whose value is `undefined` are not stored. */
function defined(value: object): Content {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined));
}

/** An invalid frame's raw text: JSON when it can be written as JSON, else its string form. */
function rawText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function createSessionRecorder(db: Database.Database, now: () => Date): SessionRecorder {
  const transcript = createTranscriptProjection(db);
  const usage = createUsageProjection(db);
  const listeners = new Set<(notice: CommitNotice) => void>();

  const lastSequence = db.prepare<[string], { last_sequence: number }>(
    "SELECT last_sequence FROM sessions WHERE id = ?",
  );
  const touchSession = db.prepare(
    "UPDATE sessions SET last_sequence = ?, updated_at = ? WHERE id = ?",
  );
  const insertRow = db.prepare(
    `INSERT INTO ledger (session_id, sequence, turn_id, type, content, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const compactionById = db.prepare<[string, string], { state: string }>(
    "SELECT state FROM compactions WHERE session_id = ? AND compaction_id = ?",
  );
  const openCompactionStates = db.prepare<[string], { state: string }>(
    `SELECT state FROM compactions WHERE session_id = ?
     AND status NOT IN ('completed', 'failed', 'cancelled') ORDER BY first_sequence`,
  );
  const insertCompaction = db.prepare(
    `INSERT INTO compactions (session_id, compaction_id, state, status, first_sequence,
       terminal_sequence, latest_sequence, fired_sequence, fired_turn_id, fired_at, trigger,
       context_used, context_size)
     VALUES (@session_id, @compaction_id, @state, @status, @first_sequence, @terminal_sequence,
       @latest_sequence, @fired_sequence, @fired_turn_id, @fired_at, @trigger, @context_used,
       @context_size)`,
  );
  const updateCompaction = db.prepare(
    `UPDATE compactions SET state = @state, status = @status,
       terminal_sequence = COALESCE(terminal_sequence, @terminal_sequence),
       latest_sequence = @latest_sequence
     WHERE session_id = @session_id AND compaction_id = @compaction_id`,
  );
  // §3.8: readings from before an earlier compaction's first terminal row do not count.
  const earlierBoundary = db.prepare<[string, number], { boundary: number | null }>(
    `SELECT MAX(terminal_sequence) AS boundary FROM compactions
     WHERE session_id = ? AND terminal_sequence < ?`,
  );
  const readingBetween = db.prepare<[string, number, number], { content: string }>(
    `SELECT content FROM ledger WHERE session_id = ? AND type = 'usage'
     AND sequence > ? AND sequence < ? ORDER BY sequence DESC LIMIT 1`,
  );
  const turnRequested = db.prepare<[string, string], { compact_requested: number }>(
    "SELECT compact_requested FROM turns WHERE session_id = ? AND turn_id = ?",
  );

  const inTransaction = db.transaction(
    (sessionId: string, turnId: string | null, work: (append: Append) => void): LedgerRow[] => {
      const current = lastSequence.get(sessionId);
      if (current === undefined) throw new Error(`unknown session ${sessionId}`);
      let sequence = current.last_sequence;
      const createdAt = now().toISOString();
      const rows: LedgerRow[] = [];
      work((type, content) => {
        sequence += 1;
        const row: LedgerRow = {
          session_id: sessionId,
          sequence,
          turn_id: turnId,
          type,
          content,
          created_at: createdAt,
        };
        insertRow.run(sessionId, sequence, turnId, type, JSON.stringify(content), createdAt);
        transcript.apply(row);
        usage.apply(row);
        rows.push(row);
        return row;
      });
      if (rows.length > 0) touchSession.run(sequence, createdAt, sessionId);
      return rows;
    },
  );

  function record(
    sessionId: string,
    turnId: string | null,
    work: (append: Append) => void,
  ): LedgerRow[] {
    const rows = inTransaction.immediate(sessionId, turnId, work);
    const last = rows[rows.length - 1];
    if (last !== undefined) {
      const notice: CommitNotice = { sessionId, rows, maxSequence: last.sequence };
      for (const listener of listeners) {
        // The rows are committed whatever a listener does; one failing must not stop the rest.
        try {
          listener(notice);
        } catch (error) {
          console.error("ledger commit listener failed", error);
        }
      }
    }
    return rows;
  }

  function firedContext(
    sessionId: string,
    firstSequence: number,
  ): { context_used: unknown; context_size: unknown } {
    const boundary = earlierBoundary.get(sessionId, firstSequence)?.boundary ?? 0;
    const reading = readingBetween.get(sessionId, boundary, firstSequence);
    if (reading === undefined) return { context_used: null, context_size: null };
    const content = JSON.parse(reading.content) as Content;
    return {
      context_used: content.context_used ?? null,
      context_size: content.context_size ?? null,
    };
  }

  /** Appends the rows of one compaction step and persists the id's new state. */
  function applyCompactionStep(
    sessionId: string,
    turnId: string | null,
    append: Append,
    step: CompactionStep,
  ): void {
    const chunkRow = step.chunk ? append("compaction.chunk", step.chunk) : undefined;
    const snapshotRow = step.snapshot ? append("compaction", step.snapshot) : undefined;
    const state: CompactionState = step.state;
    const terminalSequence = snapshotRow && step.snapshot?.terminal ? snapshotRow.sequence : null;
    const latest = snapshotRow?.sequence ?? chunkRow?.sequence ?? 0;
    if (!step.firstSeen) {
      updateCompaction.run({
        session_id: sessionId,
        compaction_id: state.compactionId,
        state: JSON.stringify(state),
        status: state.status,
        terminal_sequence: terminalSequence,
        latest_sequence: latest,
      });
      return;
    }
    // A first-seen id always changes what is shown, so its first snapshot exists.
    if (snapshotRow === undefined) throw new Error("first-seen compaction without a snapshot");
    const requested =
      turnId !== null && turnRequested.get(sessionId, turnId)?.compact_requested === 1;
    const fired = {
      compaction_id: state.compactionId,
      trigger: requested ? "requested" : "agent",
      ...firedContext(sessionId, chunkRow?.sequence ?? snapshotRow.sequence),
    };
    const firedRow = append("session.compaction_fired", fired);
    insertCompaction.run({
      session_id: sessionId,
      compaction_id: state.compactionId,
      state: JSON.stringify(state),
      status: state.status,
      first_sequence: snapshotRow.sequence,
      terminal_sequence: terminalSequence,
      latest_sequence: firedRow.sequence,
      fired_sequence: firedRow.sequence,
      fired_turn_id: turnId,
      fired_at: firedRow.created_at,
      trigger: fired.trigger,
      context_used: fired.context_used,
      context_size: fired.context_size,
    });
  }

  function loadCompaction(sessionId: string, compactionId: string): CompactionState | undefined {
    const stored = compactionById.get(sessionId, compactionId);
    return stored ? (JSON.parse(stored.state) as CompactionState) : undefined;
  }

  function appendUpdate(
    sessionId: string,
    turnId: string | null,
    append: Append,
    update: ModelledUpdate,
  ): void {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
      case "agent_thought_chunk": {
        const content: Content = {};
        if (typeof update.messageId === "string") content.message_id = update.messageId;
        content.content = update.content;
        const type =
          update.sessionUpdate === "agent_message_chunk"
            ? "agent.message_chunk"
            : "agent.thought_chunk";
        append(type, content);
        return;
      }
      case "tool_call":
      case "tool_call_update":
        append(update.sessionUpdate, without(update, "sessionUpdate"));
        return;
      case "plan":
        append("plan", { entries: update.entries });
        return;
      case "available_commands_update":
        append("available_commands", {
          commands: update.availableCommands.map((command) => {
            const entry: Content = { name: command.name, description: command.description };
            if (command.input) entry.input = { hint: command.input.hint };
            return entry;
          }),
        });
        return;
      case "usage_update": {
        const content: Content = { context_used: update.used, context_size: update.size };
        if (update.cost) {
          content.cost_amount = update.cost.amount;
          content.cost_currency = update.cost.currency;
        }
        append("usage", content);
        return;
      }
      case "compaction_update": {
        const frame: CompactionUpdateFrame = update;
        const step = applyCompactionUpdate(loadCompaction(sessionId, frame.compactionId), frame);
        applyCompactionStep(sessionId, turnId, append, step);
        return;
      }
      case "compaction_summary_chunk": {
        const frame: CompactionChunkFrame = update;
        const step = applyCompactionChunk(loadCompaction(sessionId, frame.compactionId), frame);
        applyCompactionStep(sessionId, turnId, append, step);
        return;
      }
    }
  }

  function closeOpen(sessionId: string, turnId: string | null, append: Append): void {
    for (const stored of openCompactionStates.all(sessionId)) {
      const state = JSON.parse(stored.state) as CompactionState;
      applyCompactionStep(sessionId, turnId, append, closeCompactionByDaemon(state));
    }
  }

  return {
    recordState(sessionId, state, reason) {
      return record(sessionId, null, (append) => {
        append("session.state", reason === undefined ? { state } : { state, reason });
      });
    },
    recordInput(sessionId, turnId, text, options) {
      return record(sessionId, turnId, (append) => {
        append("input", options?.maintenance ? { text, maintenance: true } : { text });
      });
    },
    recordCompactionRequested(sessionId, turnId, request) {
      return record(sessionId, turnId, (append) => {
        append("session.compaction.requested", {
          session_id: sessionId,
          command: request.command,
          requested_by: request.requested_by,
        });
        append("input", { text: `/${request.command}`, maintenance: true });
      });
    },
    recordUpdate(sessionId, turnId, update) {
      const parsed = parseAcpUpdate(update);
      return record(sessionId, turnId, (append) => {
        if (parsed.kind === "invalid") {
          append("agent.invalid_frame", {
            raw: rawText(update),
            error: parsed.error,
          });
        } else if (parsed.kind === "unmodelled") {
          append("agent.unknown_update", parsed.raw);
        } else {
          appendUpdate(sessionId, turnId, append, parsed.update);
        }
      });
    },
    recordInvalidFrame(sessionId, turnId, raw, error) {
      return record(sessionId, turnId, (append) => {
        append("agent.invalid_frame", { raw, error });
      });
    },
    recordPromptCompleted(sessionId, turnId, completion) {
      return record(sessionId, turnId, (append) => {
        append("prompt.completed", defined(completion));
      });
    },
    recordPermission(sessionId, turnId, permission) {
      return record(sessionId, turnId, (append) => {
        append("permission", defined(permission));
      });
    },
    recordAgentExited(sessionId, turnId, exit) {
      return record(sessionId, turnId, (append) => {
        closeOpen(sessionId, turnId, append);
        append("agent.exited", { code: exit.code, signal: exit.signal });
      });
    },
    closeOpenCompactions(sessionId, turnId) {
      return record(sessionId, turnId, (append) => closeOpen(sessionId, turnId, append));
    },
    onCommit(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
