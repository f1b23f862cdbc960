// One piece: every write of a session is one transaction across the ledger and all its
// projections; the transaction boundary is the reason they live together (ADR 0043).
// Every write to a session: one SQLite transaction per call that appends the ledger
// rows and updates every projection they touch, then tells listeners after the commit.
// Validation of agent frames and the compaction rules live in `server/domain/`; this
// module decides which rows to append (compaction frames: `compaction-recording.ts`).
import type Database from "better-sqlite3";
import { type ModelledUpdate, parseAcpUpdate } from "../domain/acp-update";
import {
  configOptionsOf,
  modelOfUsageMeta,
  modeStateOf,
  noticeFromMessageChunk,
} from "../domain/agent-session-info";
import type {
  CommitNotice,
  LedgerRow,
  PromptAdmission,
  SessionRecorder,
} from "../domain/session-recorder-api";
import { type Append, createCompactionRecording } from "./compaction-recording";
import { READ_SQL } from "./read-sql";
import { createActivityMarker } from "./session-activity";
import { createTranscriptProjection } from "./transcript-projection";
import { createUsageProjection } from "./usage-projection";

type Content = Record<string, unknown>;

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
  const compactions = createCompactionRecording(db);
  const listeners = new Set<(notice: CommitNotice) => void>();
  const activity = createActivityMarker(db);

  // The newest sequence per session, kept in memory (ADR 0040): derived once per session
  // from the ledger itself (the newest committed row, a primary-key descent), then moved
  // on only after a commit. The sessions row is not written on append any more.
  const lastSequences = new Map<string, number>();
  const newestSequence = db.prepare<[string], { sequence: number }>(READ_SQL.newestSequence);
  const sessionExists = db.prepare<[string], { id: string }>(
    "SELECT id FROM sessions WHERE id = ?",
  );
  const insertAdmission = db.prepare(
    `INSERT INTO prompt_admissions (session_id, idempotency_key, message_id, fingerprint,
       turn_id, result, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertRow = db.prepare(
    `INSERT INTO ledger (session_id, sequence, turn_id, type, content, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  function lastSequence(sessionId: string): number {
    const known = lastSequences.get(sessionId);
    if (known !== undefined) return known;
    if (sessionExists.get(sessionId) === undefined) throw new Error(`unknown session ${sessionId}`);
    return newestSequence.get(sessionId)?.sequence ?? 0;
  }
  const inTransaction = db.transaction(
    (sessionId: string, turnId: string | null, work: (append: Append) => void): LedgerRow[] => {
      let sequence = lastSequence(sessionId);
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
      activity.mark(sessionId, rows);
      return rows;
    },
  );

  function tell(notice: CommitNotice): void {
    for (const listener of listeners) {
      // The rows are committed whatever a listener does; one failing must not stop the rest.
      try {
        listener(notice);
      } catch (error) {
        console.error("ledger commit listener failed", error);
      }
    }
  }

  // A batch (ADR 0043) is one outer transaction around many calls: each call is a savepoint
  // inside it, and what it appended is told to listeners only once the batch has committed.
  let batchNotices: CommitNotice[] | undefined;
  const inBatch = db.transaction((work: () => void) => work());

  function record(
    sessionId: string,
    turnId: string | null,
    work: (append: Append) => void,
  ): LedgerRow[] {
    let rows: LedgerRow[];
    try {
      rows = inTransaction.immediate(sessionId, turnId, work);
    } catch (error) {
      // Rolled back: nothing moved. Forget the cached sequence anyway, so a writer on
      // another connection (a primary-key clash) is caught up with on the next call.
      lastSequences.delete(sessionId);
      transcript.forget(sessionId);
      activity.forget(sessionId);
      throw error;
    }
    const last = rows[rows.length - 1];
    if (last !== undefined) {
      // The next append continues after it (in a batch, undone if the batch rolls back).
      lastSequences.set(sessionId, last.sequence);
      const notice: CommitNotice = { sessionId, rows, maxSequence: last.sequence };
      if (batchNotices === undefined) tell(notice);
      else batchNotices.push(notice);
    }
    return rows;
  }

  function batch(work: () => void): void {
    if (batchNotices !== undefined) {
      work();
      return;
    }
    const notices: CommitNotice[] = [];
    batchNotices = notices;
    try {
      inBatch.immediate(work);
    } catch (error) {
      // The whole batch rolled back: nothing of it was told, and every cache may be ahead.
      lastSequences.clear();
      activity.forget();
      for (const notice of notices) transcript.forget(notice.sessionId);
      throw error;
    } finally {
      batchNotices = undefined;
    }
    for (const notice of notices) tell(notice);
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
        // An adapter's notice sent as a chunk is not the model's words (ADR 0090).
        const notice =
          update.sessionUpdate === "agent_message_chunk"
            ? noticeFromMessageChunk(update)
            : undefined;
        if (notice !== undefined) {
          append("notice", notice);
          return;
        }
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
      case "user_message_chunk": {
        const content: Content = {};
        if (typeof update.messageId === "string") content.message_id = update.messageId;
        content.content = update.content;
        append("user.message_chunk", content);
        return;
      }
      case "tool_call":
      case "tool_call_update":
        append(update.sessionUpdate, without(update, "sessionUpdate"));
        return;
      case "current_mode_update":
        append("session.mode", { current_mode_id: update.currentModeId });
        return;
      case "config_option_update":
        append("session.config_options", {
          config_options: configOptionsOf(update.configOptions),
        });
        return;
      case "session_info_update": {
        // A title (or its clearing) gets its own row type, so the newest is one index
        // lookup; Codex sends a status-only update several times per turn.
        const content = defined({
          ...("title" in update ? { title: update.title ?? null } : {}),
          updated_at: update.updatedAt ?? undefined,
          _meta: update._meta ?? undefined,
        });
        append("title" in update ? "session.title" : "session.info", content);
        return;
      }
      case "notice":
        append(
          "notice",
          defined({
            severity: update.severity,
            title: update.title,
            description: update.description ?? undefined,
            source: "acp",
            _meta: update._meta ?? undefined,
          }),
        );
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
        const model = modelOfUsageMeta(update._meta);
        if (model !== undefined) content.model = model;
        append("usage", content);
        return;
      }
      case "compaction_update":
      case "compaction_summary_chunk":
        compactions.record(sessionId, turnId, append, update);
        return;
    }
  }

  /** A prompt's idempotency key, stored in the transaction that records its turn. */
  function admit(sessionId: string, turnId: string | null, admission: PromptAdmission): void {
    insertAdmission.run(
      sessionId,
      admission.idempotency_key,
      admission.message_id,
      admission.fingerprint,
      turnId,
      JSON.stringify(admission.result),
      now().toISOString(),
    );
  }

  return {
    batch,
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
    recordUpdate(sessionId, turnId, update, rawLine) {
      const parsed = parseAcpUpdate(update);
      return record(sessionId, turnId, (append) => {
        if (parsed.kind === "invalid") {
          append("agent.invalid_frame", {
            raw: rawLine ?? rawText(update),
            error: parsed.error,
          });
        } else if (parsed.kind === "unmodelled") {
          append("agent.unknown_update", parsed.raw);
        } else {
          appendUpdate(sessionId, turnId, append, parsed.update);
        }
      });
    },
    recordSessionSetup(sessionId, response) {
      return record(sessionId, null, (append) => {
        const modes = modeStateOf(response.modes);
        if (modes !== undefined) append("session.modes", modes);
        if (Array.isArray(response.configOptions)) {
          append("session.config_options", {
            config_options: configOptionsOf(response.configOptions),
          });
        }
      });
    },
    recordModeSet(sessionId, modeId) {
      return record(sessionId, null, (append) => {
        append("session.mode", { current_mode_id: modeId, source: "client" });
      });
    },
    recordReplayCarried(sessionId, carried) {
      return record(sessionId, null, (append) => {
        append("session.replay_carried", carried);
      });
    },
    recordExtension(sessionId, turnId, method, params) {
      return record(sessionId, turnId, (append) => {
        append("agent.extension", params === undefined ? { method } : { method, params });
      });
    },
    recordPermissionRequested(sessionId, turnId, request) {
      return record(sessionId, turnId, (append) => {
        append("permission.requested", defined(request));
      });
    },
    recordPermissionResolved(sessionId, turnId, resolution) {
      return record(sessionId, turnId, (append) => {
        append("permission.resolved", defined(resolution));
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
        compactions.closeOpen(sessionId, turnId, append);
        append("agent.exited", { code: exit.code, signal: exit.signal });
      });
    },
    closeOpenCompactions(sessionId, turnId) {
      return record(sessionId, turnId, (append) =>
        compactions.closeOpen(sessionId, turnId, append),
      );
    },
    onCommit(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
