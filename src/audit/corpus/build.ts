// Builds transcript entries in the shape the reference daemon projects them (user messages
// with a turn id, assistant text, one entry per tool call, plan events, the compaction's
// system message), from a compact description: the corpus and the audit tests read as prose.
// Ids are predictable so labels can name them: user messages u1, u2…; tool calls t1…
// (call ids call-1…); agent messages a1…; events e1….
import type { CompactionItem, Entry, Part } from "../../contract/transcript";
import type { AuditedCompaction } from "../types";

export type CorpusTool = {
  /** ACP tool kind: `read`, `edit`, `execute`, `search`… */
  kind: string;
  title?: string;
  input?: Record<string, unknown>;
  locations?: string[];
  /** The tool call failed with this text. */
  error?: string;
};

export type CorpusTurn = {
  user?: string;
  /** The maintenance turn of a typed `/compact` (not the person's instruction). */
  compact?: boolean;
  agent?: string;
  tools?: CorpusTool[];
  plan?: string[];
  /** An error event line (an agent error notice). */
  errorEvent?: string;
};

export type BuiltSpan = { entries: Entry[]; compaction: AuditedCompaction };

export class TranscriptBuilder {
  private sequence = 0;
  private turn = 0;
  private tool = 0;
  private users = 0;
  private agents = 0;
  private events = 0;
  readonly entries: Entry[] = [];

  private push(message: Entry["message"]): Entry {
    this.sequence += 1;
    const entry: Entry = { message, start_sequence: this.sequence, sequence: this.sequence };
    this.entries.push(entry);
    return entry;
  }

  private toolPart(tool: CorpusTool): Part {
    this.tool += 1;
    const part: Part = {
      type: `tool-${tool.kind}`,
      toolCallId: `call-${this.tool}`,
      state: tool.error === undefined ? "output-available" : "output-error",
    };
    if (tool.title !== undefined) part.title = tool.title;
    if (tool.input !== undefined) part.input = tool.input;
    if (tool.locations !== undefined) {
      part.output = { locations: tool.locations.map((path) => ({ path })) };
    }
    if (tool.error !== undefined) part.errorText = tool.error;
    return part;
  }

  addTurn(turn: CorpusTurn): this {
    this.turn += 1;
    const turnId = `turn-${this.turn}`;
    if (turn.user !== undefined || turn.compact === true) {
      const metadata: Record<string, unknown> = { turn_id: turnId };
      if (turn.compact === true) Object.assign(metadata, { maintenance: true, typed: true });
      this.users += 1;
      this.push({
        id: `u${this.users}`,
        role: "user",
        metadata,
        parts: [{ type: "text", text: turn.user ?? "/compact", state: "done" }],
      });
    }
    if (turn.plan !== undefined) {
      const entries = turn.plan.map((content) => ({
        content,
        priority: "medium",
        status: "pending",
      }));
      this.events += 1;
      this.push({
        id: `e${this.events}`,
        role: "system",
        parts: [{ type: "data-compozy-event", data: { type: "plan", entries } }],
      });
    }
    for (const tool of turn.tools ?? []) {
      const part = this.toolPart(tool);
      this.push({ id: `t${this.tool}`, role: "assistant", parts: [part] });
    }
    if (turn.errorEvent !== undefined) {
      this.events += 1;
      this.push({
        id: `e${this.events}`,
        role: "system",
        parts: [{ type: "data-compozy-event", data: { type: "notice", error: turn.errorEvent } }],
      });
    }
    if (turn.agent !== undefined) {
      this.agents += 1;
      const id = `a${this.agents}`;
      this.push({
        id,
        role: "assistant",
        parts: [{ type: "text", id: `${id}-0`, text: turn.agent, state: "done" }],
      });
    }
    return this;
  }

  /** Closes a span with a compaction; returns the span's entries and the compaction. */
  compact(
    id: string,
    summary: string | null,
    status: CompactionItem["status"] = "completed",
  ): BuiltSpan {
    const start = this.entries.findLastIndex((entry) =>
      entry.message.parts.some((part) => part.type === "data-compozy-compaction"),
    );
    const item: CompactionItem = {
      kind: "compaction",
      compaction_id: id,
      status,
      started_at: "2026-11-30T10:00:00Z",
      ended_at: "2026-11-30T10:00:05Z",
    };
    if (summary !== null) item.summary = summary;
    const entries = this.entries.slice(start + 1);
    const entry = this.push({
      id: `compaction-${id}`,
      role: "system",
      parts: [{ type: "data-compozy-compaction", id, data: item }],
    });
    return { entries, compaction: { item, entry_id: entry.message.id } };
  }
}
