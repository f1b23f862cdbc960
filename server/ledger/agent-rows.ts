// What the agent's messages append: a `session/update` frame's rows by kind (validated in
// `server/domain/acp-update.ts`; compaction frames go to `compaction-recording.ts`), its
// setup answer's modes and options, an extension notification, a line that is no frame,
// and its exit, which first closes every open compaction.
import {
  type CompactionChunkFrame,
  type CompactionUpdateFrame,
  type ModelledUpdate,
  parseAcpUpdate,
} from "../domain/acp-update";
import {
  configOptionsOf,
  modelOfUsageMeta,
  modeStateOf,
  noticeFromMessageChunk,
} from "../domain/agent-session-info";
import type { SessionRecorder } from "../domain/session-recorder-api";
import type { CompactionRecording } from "./compaction-recording";
import { type Append, type Content, defined, type LedgerWriter } from "./ledger-writer";

export type AgentCalls = Pick<
  SessionRecorder,
  | "recordUpdate"
  | "recordSessionSetup"
  | "recordExtension"
  | "recordInvalidFrame"
  | "recordAgentExited"
  | "closeOpenCompactions"
>;

function without<T extends Content>(value: T, key: string): Content {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

/** An invalid frame's raw text: JSON when it can be written as JSON, else its string form. */
function rawText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

type ChunkUpdate = Extract<
  ModelledUpdate,
  { sessionUpdate: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk" }
>;

/**
 * A message, thought or user chunk's row. An adapter's notice sent as an agent message chunk
 * is not the model's words (ADR 0090): it is a notice row.
 */
function appendChunkRow(append: Append, update: ChunkUpdate): void {
  const notice =
    update.sessionUpdate === "agent_message_chunk" ? noticeFromMessageChunk(update) : undefined;
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
      : update.sessionUpdate === "agent_thought_chunk"
        ? "agent.thought_chunk"
        : "user.message_chunk";
  append(type, content);
}

function appendUpdate(
  append: Append,
  update: ModelledUpdate,
  compaction: (frame: CompactionUpdateFrame | CompactionChunkFrame) => void,
): void {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
    case "agent_thought_chunk":
    case "user_message_chunk":
      appendChunkRow(append, update);
      return;
    case "tool_call":
    case "tool_call_update":
      append(update.sessionUpdate, without(update, "sessionUpdate"));
      return;
    case "current_mode_update":
      append("session.mode", { current_mode_id: update.currentModeId });
      return;
    case "config_option_update":
      append("session.config_options", { config_options: configOptionsOf(update.configOptions) });
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
      compaction(update);
      return;
  }
}

export function agentCalls(
  record: LedgerWriter["record"],
  compactions: CompactionRecording,
): AgentCalls {
  return {
    recordUpdate(sessionId, turnId, update, rawLine) {
      const parsed = parseAcpUpdate(update);
      return record(sessionId, turnId, (append) => {
        if (parsed.kind === "invalid") {
          append("agent.invalid_frame", { raw: rawLine ?? rawText(update), error: parsed.error });
        } else if (parsed.kind === "unmodelled") {
          append("agent.unknown_update", parsed.raw);
        } else {
          appendUpdate(append, parsed.update, (frame) =>
            compactions.record(sessionId, turnId, append, frame),
          );
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
    recordExtension(sessionId, turnId, method, params) {
      return record(sessionId, turnId, (append) => {
        append("agent.extension", params === undefined ? { method } : { method, params });
      });
    },
    recordInvalidFrame(sessionId, turnId, raw, error) {
      return record(sessionId, turnId, (append) => {
        append("agent.invalid_frame", { raw, error });
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
  };
}
