import { describe, expect, it } from "vitest";
import * as wire from "../test/wire-examples";
import {
  CancelAccepted,
  CompactAccepted,
  CompactBody,
  chooseCompactionCommand,
  PromptAccepted,
  PromptBody,
} from "./commands";
import { ErrorEnvelope } from "./error";
import { Health } from "./health";
import { EventList, EventsQuery, History, LedgerEvent } from "./history";
import {
  CreateSessionBody,
  Session,
  SessionEnvelope,
  SessionList,
  SessionListQuery,
  WorkspaceList,
} from "./session";
import {
  STREAM_EVENTS,
  STREAM_PAYLOADS,
  StreamQuery,
  TranscriptDeltaEvent,
  TranscriptSnapshotEvent,
  UsageChangedEvent,
} from "./stream";
import {
  CompactionItem,
  compactionOf,
  DaemonEntry,
  Entry,
  isTerminalCompactionStatus,
  Part,
  TranscriptPage,
  TranscriptQuery,
} from "./transcript";
import { UsageEnvelope, UsageTurns } from "./usage";

function without<T extends object>(value: T, key: keyof T): Omit<T, typeof key> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

describe("workspaces and sessions", () => {
  it("when a realistic session list arrives, then every field survives the parse", () => {
    const parsed = SessionList.parse({
      sessions: [wire.session],
      page: { has_more: false, limit: 50, total: 1 },
    });
    expect(parsed.sessions[0]).toEqual(wire.session);
    expect(WorkspaceList.parse({ workspaces: [wire.workspace] }).workspaces).toHaveLength(1);
    expect(SessionEnvelope.parse({ session: wire.session }).session.id).toBe("ses_7hq2kd");
    expect(Health.parse({ status: "ok", version: "0.1.0" }).version).toBe("0.1.0");
  });

  it("when a required field is missing or mistyped, then the session is rejected", () => {
    expect(Session.safeParse(without(wire.session, "workspace_id")).success).toBe(false);
    expect(Session.safeParse({ ...wire.session, state: "sleeping" }).success).toBe(false);
    expect(Session.safeParse({ ...wire.session, available_commands: "compact" }).success).toBe(
      false,
    );
    expect(Session.safeParse({ ...wire.session, created_at: "yesterday" }).success).toBe(false);
  });

  it("when an optional field is null instead of absent, then it is rejected", () => {
    expect(Session.safeParse({ ...wire.session, name: null }).success).toBe(false);
    expect(Session.safeParse({ ...wire.session, activity: null }).success).toBe(false);
  });

  it("when query parameters are valid, then integers are parsed; otherwise refused", () => {
    expect(SessionListQuery.parse({ limit: "25", state: "active" })).toEqual({
      limit: 25,
      state: "active",
    });
    for (const limit of ["-1", "0", "1001", "abc", "1.5", "", "1e3"]) {
      expect(SessionListQuery.safeParse({ limit }).success, limit).toBe(false);
    }
    expect(SessionListQuery.safeParse({ sort: "name" }).success).toBe(false);
  });

  it("when a create body has an unknown field, then it is refused", () => {
    expect(CreateSessionBody.parse({ agent: "demo" })).toEqual({ agent: "demo" });
    expect(CreateSessionBody.safeParse({ agent: "demo", command: "rm -rf /" }).success).toBe(false);
  });
});

describe("prompts and Compact now", () => {
  it("when answers are realistic, then they parse", () => {
    expect(
      PromptAccepted.parse({ session_id: "s", prompt_id: "turn_5", status: "accepted" }).prompt_id,
    ).toBe("turn_5");
    expect(CancelAccepted.parse({ session_id: "s", prompt_id: "turn_5" }).session_id).toBe("s");
    expect(
      CompactAccepted.parse({
        session_id: "s",
        prompt_id: "turn_6",
        command: "compress",
        status: "accepted",
      }).command,
    ).toBe("compress");
  });

  it("when bodies are empty, too long or carry extra fields, then they are refused", () => {
    expect(PromptBody.safeParse({ text: "" }).success).toBe(false);
    expect(PromptBody.safeParse({ text: "x".repeat(100_001) }).success).toBe(false);
    expect(PromptBody.safeParse({ text: "hi", stream: true }).success).toBe(false);
    expect(PromptBody.safeParse({ text: "x".repeat(100_000) }).success).toBe(true);
    expect(CompactBody.safeParse({}).success).toBe(true);
    expect(CompactBody.safeParse({ command: "compact" }).success).toBe(false);
    expect(
      CompactAccepted.safeParse({
        session_id: "s",
        prompt_id: "t",
        command: "summarize",
        status: "accepted",
      }).success,
    ).toBe(false);
  });

  it("when choosing a compaction command, then only exact names count and compact wins", () => {
    const cmd = (...names: string[]) => chooseCompactionCommand(names.map((name) => ({ name })));
    expect(cmd("help", "compress", "compact")).toBe("compact");
    expect(cmd(" compress ")).toBe("compress");
    expect(cmd("/compact", "Compact", "compact-now", "COMPRESS")).toBeUndefined();
    expect(cmd()).toBeUndefined();
  });
});

describe("errors", () => {
  it("when an envelope carries a code and details, then both are kept", () => {
    const parsed = ErrorEnvelope.parse({
      error: "session: prompt already in progress",
      code: "session_busy",
      details: { session_id: "s" },
    });
    expect(parsed.code).toBe("session_busy");
    expect(ErrorEnvelope.safeParse({ message: "nope" }).success).toBe(false);
    expect(ErrorEnvelope.safeParse({ error: "x", details: { n: 1 } }).success).toBe(false);
  });
});

describe("transcript", () => {
  it("when a realistic page arrives, then every entry and part type is kept", () => {
    const page = TranscriptPage.parse(wire.transcriptPage);
    expect(page.entries.map((entry) => entry.message.parts[0]?.type)).toEqual([
      "text",
      "reasoning",
      "tool-read",
      "data-compozy-compaction",
      "data-compozy-event",
    ]);
    const event = page.entries[4]?.message.parts[0];
    expect(event?.type === "data-compozy-event" && event.data.entries).toBeTruthy();
    for (const entry of wire.entries) expect(DaemonEntry.safeParse(entry).success).toBe(true);
  });

  it("when a part type is unknown, then it parses into the unsupported form instead of throwing", () => {
    const part = Part.parse({ type: "data-vendor-widget", id: "w1", data: { x: 1 } });
    expect(part).toMatchObject({ type: "unsupported", original_type: "data-vendor-widget" });
    expect(Part.parse(42)).toMatchObject({ type: "unsupported", original_type: "unknown" });
  });

  it("when a known part is malformed, then only that part becomes unsupported", () => {
    const entry = Entry.parse({
      ...wire.entries[3],
      message: {
        id: "compaction_cmp-2",
        role: "system",
        parts: [{ type: "data-compozy-compaction", id: "cmp-2", data: { kind: "compaction" } }],
      },
    });
    expect(entry.message.parts[0]).toMatchObject({
      type: "unsupported",
      original_type: "data-compozy-compaction",
    });
    expect(DaemonEntry.safeParse(entry).success).toBe(false);
  });

  it("when a compaction has an unknown status, then it is kept verbatim and not terminal", () => {
    const item = CompactionItem.parse({ ...wire.compactionItem, status: "_paused" });
    expect(item.status).toBe("_paused");
    expect(isTerminalCompactionStatus(item.status)).toBe(false);
    expect(["completed", "failed", "cancelled"].every(isTerminalCompactionStatus)).toBe(true);
    expect(CompactionItem.safeParse({ ...wire.compactionItem, status: "" }).success).toBe(false);
    expect(CompactionItem.safeParse(without(wire.compactionItem, "started_at")).success).toBe(
      false,
    );
  });

  it("when an entry has a negative or fractional sequence, then it is rejected", () => {
    expect(Entry.safeParse({ ...wire.entries[0], start_sequence: -1 }).success).toBe(false);
    expect(Entry.safeParse({ ...wire.entries[0], sequence: 2.5 }).success).toBe(false);
    expect(
      Entry.safeParse({ ...wire.entries[0], message: { id: "m", role: "tool", parts: [] } })
        .success,
    ).toBe(false);
  });

  it("when reading the compaction of an entry, then only compaction entries give one", () => {
    const page = TranscriptPage.parse(wire.transcriptPage);
    expect(page.entries.map((entry) => compactionOf(entry)?.compaction_id)).toEqual([
      undefined,
      undefined,
      undefined,
      "cmp-1",
      undefined,
    ]);
  });

  it("when transcript queries are out of range, then they are refused", () => {
    expect(TranscriptQuery.parse({ limit: "200", before_sequence: "12" })).toEqual({
      limit: 200,
      before_sequence: 12,
    });
    for (const bad of [
      { limit: "-1" },
      { limit: "1001" },
      { before_sequence: "x" },
      { page: "2" },
    ]) {
      expect(TranscriptQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("history and events", () => {
  it("when raw ledger events arrive, then their content keeps every row field", () => {
    const event = LedgerEvent.parse(wire.ledgerEvent);
    expect(event.content).toMatchObject({ compaction_id: "cmp-1", status: "in_progress" });
    expect(
      History.parse({ history: [{ turn_id: "turn_4", events: [event] }] }).history,
    ).toHaveLength(1);
    expect(
      History.parse({ history: [{ turn_id: null, events: [] }] }).history[0]?.turn_id,
    ).toBeNull();
    expect(EventList.parse({ events: [event], has_more: false }).events).toHaveLength(1);
  });

  it("when an event has the wrong schema tag or sequence, then it is rejected", () => {
    const bad = { ...wire.ledgerEvent, content: { ...wire.ledgerEvent.content, schema: "v0" } };
    expect(LedgerEvent.safeParse(bad).success).toBe(false);
    expect(LedgerEvent.safeParse({ ...wire.ledgerEvent, sequence: -3 }).success).toBe(false);
    expect(EventsQuery.safeParse({ after_sequence: "-1" }).success).toBe(false);
    expect(EventsQuery.parse({ type: "compaction", limit: "10" })).toEqual({
      type: "compaction",
      limit: 10,
    });
  });
});

describe("usage", () => {
  it("when usage is reported or unknown after a compaction, then both parse", () => {
    expect(UsageEnvelope.parse({ usage: wire.usage }).usage.context.ratio).toBeCloseTo(0.35, 2);
    const unknown = UsageEnvelope.parse({ usage: wire.unknownUsage }).usage.context;
    expect(unknown.used).toBeUndefined();
    expect(unknown.cleared_by).toEqual({ compaction_id: "cmp-1", sequence: 16 });
  });

  it("when a context figure is null or negative, then usage is rejected", () => {
    const nulls = { usage: { ...wire.usage, context: { state: "unknown", used: null } } };
    expect(UsageEnvelope.safeParse(nulls).success).toBe(false);
    const negative = { usage: { ...wire.usage, context: { ...wire.usage.context, used: -5 } } };
    expect(UsageEnvelope.safeParse(negative).success).toBe(false);
    expect(
      UsageEnvelope.safeParse({ usage: { context: { state: "full" }, turn_count: 0 } }).success,
    ).toBe(false);
  });

  it("when turns and markers arrive, then markers keep trigger, status and context_after", () => {
    const parsed = UsageTurns.parse(wire.usageTurns);
    expect(parsed.compactions[0]?.context_after?.used).toBe(42_000);
    expect(parsed.turns[1]?.usage).toBeUndefined();
    const badTrigger = {
      ...wire.usageTurns,
      compactions: [{ ...wire.usageTurns.compactions[0], trigger: "timer" }],
    };
    expect(UsageTurns.safeParse(badTrigger).success).toBe(false);
    const vendor = {
      ...wire.usageTurns,
      compactions: [{ ...wire.usageTurns.compactions[0], status: "compaction_paused" }],
    };
    expect(UsageTurns.parse(vendor).compactions[0]?.status).toBe("compaction_paused");
  });
});

describe("stream events", () => {
  it("when each stream event arrives, then its payload schema accepts it", () => {
    const snapshot = {
      session_id: "s",
      epoch: "ep",
      generation: 0,
      entries: wire.entries,
      max_sequence: 17,
      has_older: false,
    };
    expect(TranscriptSnapshotEvent.parse(snapshot).entries).toHaveLength(5);
    const delta = { ...without(snapshot, "has_older"), cursor: 17 };
    expect(TranscriptDeltaEvent.parse(delta).cursor).toBe(17);
    expect(UsageChangedEvent.parse({ sequence: 16, kind: "compaction" }).kind).toBe("compaction");
    expect(
      STREAM_PAYLOADS[STREAM_EVENTS.sessionUpdated].parse({ session: wire.session }).session.state,
    ).toBe("active");
    expect(
      STREAM_PAYLOADS[STREAM_EVENTS.error].parse({ error: "gone", code: "not_found" }).code,
    ).toBe("not_found");
  });

  it("when stream payloads are malformed, then they are rejected", () => {
    expect(UsageChangedEvent.safeParse({ sequence: 16, kind: "tokens" }).success).toBe(false);
    expect(TranscriptDeltaEvent.safeParse({ session_id: "s", entries: [] }).success).toBe(false);
    expect(StreamQuery.safeParse({ after_sequence: "-4" }).success).toBe(false);
    expect(StreamQuery.parse({ after_sequence: "40" })).toEqual({ after_sequence: 40 });
  });
});
