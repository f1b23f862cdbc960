import { describe, expect, it } from "vitest";
import * as ex from "../testing/compozy-examples";
import {
  ApproveBody,
  ApproveResult,
  CancelResult,
  CompactAccepted,
  CompactBody,
  chooseCompactionCommand,
  DaemonCancelResult,
  DaemonPromptResultEnvelope,
  DerivePreview,
  PromptBody,
  PromptResultEnvelope,
  promptText,
  SessionCommands,
} from "./commands";
import { ErrorEnvelope } from "./error";
import { Health } from "./health";
import {
  COMPACTION_FIRED_EVENT,
  compactionFiredOf,
  compactionRowOf,
  DaemonEventList,
  DaemonHistory,
  DaemonSessionEvent,
  EventList,
  EventsQuery,
  History,
  SessionEvent,
} from "./history";
import {
  CreateSessionBody,
  DaemonSession,
  DaemonSessionList,
  DaemonWorkspaceList,
  isArchived,
  isTurnRunning,
  RenameSessionBody,
  Session,
  SessionEnvelope,
  SessionList,
  SessionListQuery,
  WorkspaceList,
} from "./session";
import {
  DaemonTranscriptDeltaEvent,
  DaemonTranscriptSnapshotEvent,
  KEEPALIVE_MS,
  SessionCommandsChangedEvent,
  SessionStoppedEvent,
  STREAM_EVENTS,
  STREAM_PAYLOADS,
  StreamQuery,
  streamSearchParams,
  TranscriptDeltaEvent,
  TranscriptSnapshotEvent,
} from "./stream";
import {
  CompactionItem,
  compactionOf,
  DaemonEntry,
  DaemonTranscriptPage,
  Entry,
  isTerminalCompactionStatus,
  Part,
  TranscriptPage,
  TranscriptQuery,
  toolNameOf,
} from "./transcript";
import {
  CompactionMarker,
  contextAfterOf,
  DaemonUsageEnvelope,
  UsageEnvelope,
  UsageTurns,
} from "./usage";

function without<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

describe("workspaces and sessions", () => {
  it("when CompozyOS sends a session list, then every session and the page parse", () => {
    const list = SessionList.parse(ex.sessionList);
    expect(list.sessions[0]?.id).toBe(ex.SESSION_ID);
    expect(list.page).toEqual({ has_more: true, limit: 1, next_cursor: "eyJvIjoxfQ", total: 2 });
    expect(DaemonSessionList.safeParse(ex.sessionList).success).toBe(true);
    expect(WorkspaceList.parse(ex.workspaceList).workspaces[0]?.add_dirs).toEqual([]);
    expect(DaemonWorkspaceList.safeParse(ex.workspaceList).success).toBe(true);
    expect(SessionEnvelope.parse(ex.sessionEnvelope).session.runtime?.acp_caps).toMatchObject({
      supports_load_session: true,
    });
    expect(Health.parse(ex.health).version).toBe("0.2.0");
  });

  it("when an older daemon omits the workspace id and sends nulls, then the session still parses", () => {
    const parsed = Session.parse(ex.archivedSession);
    expect(parsed.workspace_id).toBeUndefined();
    expect(parsed.available_commands).toEqual([]);
    expect(parsed.activity).toBeNull();
    expect(isArchived(parsed)).toBe(true);
    expect(isTurnRunning(parsed)).toBe(false);
    expect(isTurnRunning(Session.parse(ex.session))).toBe(true);
    expect(isTurnRunning({ activity: { turn_id: "" } })).toBe(false);
    // The daemon form insists on what CompozyOS always sends.
    expect(DaemonSession.safeParse(ex.archivedSession).success).toBe(false);
    expect(DaemonSession.safeParse(ex.session).success).toBe(true);
  });

  it("when a session has unknown fields, then they are ignored; when required ones are wrong, it is rejected", () => {
    expect(Session.parse({ ...ex.session, lineage: { spawn_depth: 1 } })).not.toHaveProperty(
      "lineage",
    );
    expect(Session.safeParse(without(ex.session, "agent_name")).success).toBe(false);
    expect(Session.safeParse({ ...ex.session, state: "sleeping" }).success).toBe(false);
    expect(Session.safeParse({ ...ex.session, created_at: "yesterday" }).success).toBe(false);
    expect(Session.safeParse({ ...ex.session, transcript_epoch: "2" }).success).toBe(false);
  });

  it("when the list query asks for 1–100 sessions, then it parses; 0, 101 or 200 are refused", () => {
    expect(SessionListQuery.parse({ limit: "100", state: "active", archive: "include" })).toEqual({
      limit: 100,
      state: "active",
      archive: "include",
    });
    for (const limit of ["0", "101", "200", "-1", "abc", "1.5", "", "1e3"]) {
      expect(SessionListQuery.safeParse({ limit }).success, limit).toBe(false);
    }
    expect(SessionListQuery.safeParse({ sort: "name" }).success).toBe(false);
    expect(SessionListQuery.safeParse({ archive: "maybe" }).success).toBe(false);
  });

  it("when create and rename bodies are CompozyOS's, then they parse; extra fields are refused", () => {
    expect(CreateSessionBody.parse(ex.createSessionBody)).toEqual(ex.createSessionBody);
    expect(CreateSessionBody.parse({})).toEqual({});
    expect(CreateSessionBody.safeParse({ agent: "demo" }).success).toBe(false);
    expect(CreateSessionBody.safeParse({ workspace: "a", workspace_path: "/b" }).success).toBe(
      false,
    );
    expect(RenameSessionBody.parse(ex.renameSessionBody).name).toBe("Ledger migration, part 2");
    expect(RenameSessionBody.safeParse({ name: "   " }).success).toBe(false);
    expect(RenameSessionBody.safeParse({ name: "x", pinned: true }).success).toBe(false);
  });
});

describe("prompts, cancel, approve, commands and Compact now", () => {
  it("when a prompt body is CompozyOS's, then it parses and names its text", () => {
    const body = PromptBody.parse(ex.promptBody);
    expect(promptText(body)).toBe(ex.promptBody.message);
    expect(PromptBody.parse({ ...ex.promptBody, mode: "queue" }).mode).toBe("queue");
    const viaMessages = PromptBody.parse({
      message_id: "m",
      idempotency_key: "k",
      messages: [
        { role: "assistant", content: "earlier" },
        { role: "user", parts: [{ type: "text", text: "from parts" }] },
      ],
    });
    expect(promptText(viaMessages)).toBe("from parts");
  });

  it("when a prompt body lacks its ids, has no text, is too long or is mistyped, then it is refused", () => {
    expect(PromptBody.safeParse({ message: "hi" }).success).toBe(false);
    expect(PromptBody.safeParse(without(ex.promptBody, "idempotency_key")).success).toBe(false);
    expect(PromptBody.safeParse({ ...ex.promptBody, message: "  " }).success).toBe(false);
    expect(PromptBody.safeParse({ ...ex.promptBody, message: "x".repeat(100_001) }).success).toBe(
      false,
    );
    expect(PromptBody.safeParse({ ...ex.promptBody, mode: "later" }).success).toBe(false);
    expect(PromptBody.safeParse({ text: "hi" }).success).toBe(false);
    expect(PromptBody.safeParse({ ...ex.promptBody, message_id: 7 }).success).toBe(false);
    expect(PromptBody.safeParse({ ...ex.promptBody, runtime: { model: "x" } }).success).toBe(false);
    expect(PromptBody.safeParse({ ...ex.promptBody, messages: [{ role: 1 }] }).success).toBe(false);
    const attachments = PromptBody.safeParse({ ...ex.promptBody, attachments: [{ id: "a" }] });
    expect(attachments.error?.issues[0]?.message).toBe(
      "attachments are not supported by this daemon",
    );
  });

  it("when CompozyOS's web sends its prompt body, then fields it does not use are ignored and the text is its parts'", () => {
    const body = {
      idempotency_key: "idem-1",
      message_id: "msg-1",
      messages: [
        {
          id: "msg-1",
          role: "user",
          parts: [{ type: "text", text: "Fix the build" }],
          metadata: { source: "composer" },
        },
      ],
      mode: "queue",
      expected_turn_id: "turn-9",
      runtime: null,
      attachments: [],
      client_hint: "ignored as CompozyOS ignores it",
    };
    const parsed = PromptBody.parse(body);
    expect(promptText(parsed)).toBe("Fix the build");
    expect(parsed).not.toHaveProperty("client_hint");
    expect(PromptBody.safeParse({ ...ex.promptBody, text: "old shape" }).success).toBe(true);
  });

  it("when prompt results arrive, then accepted, replayed and queued all parse", () => {
    for (const result of [ex.promptResult, ex.promptResultReplayed, ex.promptResultQueued]) {
      expect(PromptResultEnvelope.safeParse(result).success).toBe(true);
      expect(DaemonPromptResultEnvelope.safeParse(result).success).toBe(true);
    }
    expect(PromptResultEnvelope.parse(ex.promptResultReplayed).prompt.replayed).toBe(true);
    expect(PromptResultEnvelope.safeParse({ session_id: "s", prompt_id: "t" }).success).toBe(false);
  });

  it("when cancel answers, then both outcomes parse and turn_id is optional", () => {
    expect(CancelResult.parse(ex.cancelResult).turn_id).toBe(ex.TURN_ID);
    expect(CancelResult.parse(ex.cancelNothing).turn_id).toBeUndefined();
    expect(DaemonCancelResult.safeParse({ ...ex.cancelNothing, outcome: "nope" }).success).toBe(
      false,
    );
    expect(CancelResult.safeParse({ session_id: "s", prompt_id: "t" }).success).toBe(false);
  });

  it("when approve, commands, derive preview and Compact now payloads arrive, then they parse", () => {
    expect(ApproveBody.parse(ex.approveBody)).toEqual(ex.approveBody);
    expect(ApproveBody.safeParse({ ...ex.approveBody, note: "x" }).success).toBe(false);
    expect(ApproveResult.parse(ex.approveResult).outcome).toBe("resolved");
    expect(SessionCommands.parse(ex.sessionCommands).commands).toHaveLength(2);
    expect(DerivePreview.parse(ex.derivePreview).omitted_count).toBe(212);
    expect(CompactBody.parse(ex.compactBody)).toEqual({});
    expect(CompactBody.safeParse({ command: "compact" }).success).toBe(false);
    expect(CompactAccepted.parse(ex.compactAccepted).command).toBe("compact");
    expect(CompactAccepted.safeParse({ ...ex.compactAccepted, command: "summarize" }).success).toBe(
      false,
    );
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
  it("when an envelope carries a code, details and a diagnostic, then all are kept", () => {
    expect(ErrorEnvelope.parse(ex.errorBusy).code).toBe("session_busy");
    expect(ErrorEnvelope.parse(ex.errorWithDiagnostic).diagnostic?.code).toBe(
      "prompt_idempotency_conflict",
    );
    expect(ErrorEnvelope.safeParse({ message: "nope" }).success).toBe(false);
    expect(ErrorEnvelope.safeParse({ error: "x", details: { n: 1 } }).success).toBe(false);
  });
});

describe("transcript", () => {
  it("when CompozyOS sends a page, then numeric epochs parse and no part is unsupported", () => {
    const page = TranscriptPage.parse(ex.transcriptPage);
    expect(page.epoch).toBe(2);
    expect(page.generation).toBe(7);
    const types = page.entries.flatMap((entry) => entry.message.parts.map((part) => part.type));
    expect(types).not.toContain("unsupported");
    expect(new Set(types)).toEqual(
      new Set([
        "file",
        "text",
        "reasoning",
        "tool-read",
        "data-compozy-event",
        "tool-execute",
        "tool-edit",
        "dynamic-tool",
        "data-compozy-permission",
        "data-compozy-compaction",
      ]),
    );
    expect(DaemonTranscriptPage.safeParse(ex.transcriptPage).success).toBe(true);
    for (const entry of ex.entries) expect(DaemonEntry.safeParse(entry).success).toBe(true);
  });

  it("when epoch or generation are strings, then the page is rejected", () => {
    expect(TranscriptPage.safeParse({ ...ex.transcriptPage, epoch: "2" }).success).toBe(false);
    expect(TranscriptPage.safeParse({ ...ex.transcriptPage, generation: "7" }).success).toBe(false);
    expect(TranscriptPage.safeParse({ ...ex.transcriptPage, epoch: -1 }).success).toBe(false);
  });

  it("when each part type arrives alone, then it parses as itself", () => {
    for (const [name, raw] of Object.entries(ex.parts)) {
      const part = Part.parse(raw);
      expect(part.type, name).toBe(raw.type);
    }
    const dynamic = Part.parse(ex.parts.dynamicTool);
    expect(dynamic.type === "dynamic-tool" && toolNameOf(dynamic)).toBe(
      "mcp__linear__create_issue",
    );
    const titled = Part.parse(ex.parts.toolWithTitle);
    expect(titled.type === "tool-read" && toolNameOf(titled)).toBe("read");
    expect(Part.parse(ex.parts.toolWithoutTitle)).not.toHaveProperty("title");
  });

  it("when a message has parts: null, then the entry has no parts instead of failing", () => {
    expect(Entry.parse(ex.entryNullParts).message.parts).toEqual([]);
  });

  it("when a part type is unknown, then it parses into the unsupported form instead of throwing", () => {
    const part = Part.parse({ type: "data-vendor-widget", id: "w1", data: { x: 1 } });
    expect(part).toMatchObject({ type: "unsupported", original_type: "data-vendor-widget" });
    expect(Part.parse(42)).toMatchObject({ type: "unsupported", original_type: "unknown" });
    expect(Part.parse({ type: "step-start" })).toMatchObject({ type: "unsupported" });
  });

  it("when a known part is malformed, then only that part becomes unsupported", () => {
    const malformed = [
      { type: "data-compozy-compaction", id: "cmp-2", data: { kind: "compaction" } },
      { type: "tool-read", toolCallId: "c", state: "running" },
      { type: "dynamic-tool", toolCallId: "c", state: "input-available" },
      { type: "file", url: "x" },
      { type: "text" },
      { type: "data-compozy-event", data: { text: "no type" } },
    ];
    const entry = Entry.parse({
      ...ex.entries[0],
      message: { id: "m", role: "assistant", parts: [...malformed, ex.parts.assistantText] },
    });
    expect(entry.message.parts.map((part) => part.type)).toEqual([
      ...malformed.map(() => "unsupported"),
      "text",
    ]);
    expect(DaemonEntry.safeParse(entry).success).toBe(false);
  });

  it("when a compaction has a vendor status, then it is kept verbatim and not terminal", () => {
    const paused = Part.parse(ex.parts.compactionPaused);
    expect(paused.type === "data-compozy-compaction" && paused.data.status).toBe("_paused");
    expect(isTerminalCompactionStatus("_paused")).toBe(false);
    expect(["completed", "failed", "cancelled"].every(isTerminalCompactionStatus)).toBe(true);
    const item = ex.parts.compactionCompleted.data;
    expect(CompactionItem.safeParse({ ...item, status: "" }).success).toBe(false);
    expect(CompactionItem.safeParse(without(item, "started_at")).success).toBe(false);
  });

  it("when reading the compaction of an entry, then only compaction entries give one", () => {
    const page = TranscriptPage.parse(ex.transcriptPage);
    expect(page.entries.map((entry) => compactionOf(entry)?.compaction_id)).toEqual([
      undefined,
      undefined,
      ex.COMPACTION_ID,
      undefined,
    ]);
  });

  it("when an entry has a bad sequence or role, then it is rejected", () => {
    expect(Entry.safeParse({ ...ex.entries[0], start_sequence: -1 }).success).toBe(false);
    expect(Entry.safeParse({ ...ex.entries[0], sequence: 2.5 }).success).toBe(false);
    expect(
      Entry.safeParse({ ...ex.entries[0], message: { id: "m", role: "tool", parts: [] } }).success,
    ).toBe(false);
  });

  it("when transcript queries are out of range, then they are refused", () => {
    expect(TranscriptQuery.parse({ limit: "1000", before_sequence: "12" })).toEqual({
      limit: 1000,
      before_sequence: 12,
    });
    for (const bad of [
      { limit: "0" },
      { limit: "1001" },
      { before_sequence: "x" },
      { page: "2" },
    ]) {
      expect(TranscriptQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("events and history", () => {
  it("when CompozyOS sends events, then agent_name, timestamp and empty turn ids are kept", () => {
    const list = EventList.parse(ex.eventList);
    expect(list).not.toHaveProperty("has_more");
    expect(list.events[0]).toMatchObject({ turn_id: "", agent_name: "claude" });
    expect(DaemonEventList.safeParse(ex.eventList).success).toBe(true);
    const history = History.parse(ex.history);
    expect(history.history.map((group) => group.turn_id)).toEqual(["", ex.TURN_ID]);
    expect(DaemonHistory.safeParse(ex.history).success).toBe(true);
  });

  it("when a fired event arrives, then its payload is read under content.raw", () => {
    expect(compactionFiredOf(SessionEvent.parse(ex.compactionFired))).toEqual({
      compaction_id: ex.COMPACTION_ID,
      trigger: "agent",
      context_used: 171_204,
      context_size: 200_000,
    });
    const unknown = compactionFiredOf(SessionEvent.parse(ex.compactionFiredUnknownContext));
    expect(unknown?.context_used).toBeNull();
    // An old row with its payload at the top level is opaque history: no marker from it.
    const old = {
      ...ex.compactionFired,
      content: { ...without(ex.compactionFired.content, "raw"), compaction_id: "old" },
    };
    expect(compactionFiredOf(SessionEvent.parse(old))).toBeUndefined();
    expect(compactionRowOf(SessionEvent.parse(ex.compactionRowCompleted))).toMatchObject({
      status: "completed",
      terminal: true,
    });
    expect(COMPACTION_FIRED_EVENT).toBe("session.compaction_fired");
  });

  it("when an event lacks agent_name or timestamp, or has a null turn id, then it is rejected", () => {
    expect(SessionEvent.safeParse(without(ex.compactionFired, "agent_name")).success).toBe(false);
    expect(SessionEvent.safeParse(without(ex.compactionFired, "timestamp")).success).toBe(false);
    expect(SessionEvent.safeParse({ ...ex.compactionFired, turn_id: null }).success).toBe(false);
    expect(SessionEvent.safeParse({ ...ex.compactionFired, sequence: -3 }).success).toBe(false);
    const badSchema = {
      ...ex.compactionFired,
      content: { ...ex.compactionFired.content, schema: "v0" },
    };
    expect(SessionEvent.safeParse(badSchema).success).toBe(true);
    expect(DaemonSessionEvent.safeParse(badSchema).success).toBe(false);
  });

  it("when event queries are out of range, then they are refused", () => {
    expect(EventsQuery.parse({ type: "compaction", limit: "10", turn_id: "t" })).toEqual({
      type: "compaction",
      limit: 10,
      turn_id: "t",
    });
    for (const bad of [
      { after_sequence: "-1" },
      { limit: "1001" },
      { limit: "0" },
      { since: "yesterday" },
      { archive: "gone" },
      { page: "2" },
    ]) {
      expect(EventsQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("usage", () => {
  it("when usage is reported, unknown after a compaction or absent on an older daemon, then all parse", () => {
    expect(UsageEnvelope.parse(ex.usage).usage.context?.used).toBe(42_000);
    const cleared = UsageEnvelope.parse(ex.usageAfterCompaction).usage.context;
    expect(cleared?.used).toBeUndefined();
    expect(cleared?.cleared_by?.compaction_id).toBe(ex.COMPACTION_ID);
    const older = UsageEnvelope.parse(ex.usageWithoutContext).usage;
    expect(older.context).toBeUndefined();
    expect(older.input_tokens).toBeNull();
    expect(DaemonUsageEnvelope.safeParse(ex.usage).success).toBe(true);
    expect(DaemonUsageEnvelope.safeParse(ex.usageWithoutContext).success).toBe(false);
  });

  it("when a context state is new, then it reads as unknown; negative figures are rejected", () => {
    const future = { usage: { ...ex.usage.usage, context: { state: "projected", used: 5 } } };
    expect(UsageEnvelope.parse(future).usage.context?.state).toBe("unknown");
    const negative = { usage: { ...ex.usage.usage, context: { state: "reported", used: -5 } } };
    expect(UsageEnvelope.safeParse(negative).success).toBe(false);
    expect(UsageEnvelope.safeParse({ usage: { turn_count: -1 } }).success).toBe(false);
  });

  it("when turns and markers arrive, then markers keep trigger and status, and after is derived", () => {
    // The example's t_43 reading is stamped 14:03:05.2+02:00, two hours before the
    // compaction ended: in report order it is no "after" figure (ADR 0121).
    const stamped = UsageTurns.parse(ex.usageTurns);
    const [early] = stamped.compactions;
    expect(early && contextAfterOf(early, stamped)).toBeUndefined();
    const turns = UsageTurns.parse({
      ...ex.usageTurns,
      turns: ex.usageTurns.turns.map((turn) =>
        turn.turn_id === "t_43" && turn.usage
          ? { ...turn, usage: { ...turn.usage, timestamp: "2026-10-08T14:03:05.2Z" } }
          : turn,
      ),
    });
    const [first, second] = turns.compactions;
    expect(first && contextAfterOf(first, turns)).toEqual({
      used: 42_000,
      size: 200_000,
      sequence: 931,
      turn_id: "t_43",
    });
    expect(second && contextAfterOf(second, turns)).toBeUndefined();
    expect(second?.context_used).toBeUndefined();
    // The reference daemon's own figure wins; its null means "none yet".
    expect(first && contextAfterOf({ ...first, context_after: null }, turns)).toBeUndefined();
    expect(
      first && contextAfterOf({ ...first, context_after: { used: 9, sequence: 920 } }, turns),
    ).toEqual({ used: 9, sequence: 920 });
    const marker = ex.usageTurns.compactions[0];
    expect(CompactionMarker.safeParse({ ...marker, trigger: "timer" }).success).toBe(false);
    expect(CompactionMarker.safeParse({ ...marker, context_used: null }).success).toBe(false);
    expect(CompactionMarker.parse({ ...marker, status: "_paused" }).status).toBe("_paused");
  });
});

describe("stream", () => {
  it("when each CompozyOS stream frame arrives, then its payload schema accepts it", () => {
    expect(TranscriptSnapshotEvent.parse(ex.transcriptSnapshot).reset).toBe(false);
    expect(TranscriptSnapshotEvent.parse(ex.transcriptSnapshotReset).reason).toBe("fence_missing");
    expect(DaemonTranscriptSnapshotEvent.safeParse(ex.transcriptSnapshotReset).success).toBe(true);
    expect(TranscriptDeltaEvent.parse(ex.transcriptDelta).has_more).toBe(false);
    expect(DaemonTranscriptDeltaEvent.safeParse(ex.transcriptDelta).success).toBe(true);
    expect(SessionCommandsChangedEvent.parse(ex.commandsChanged).revision).toBe("r-9f3b");
    expect(SessionStoppedEvent.parse(ex.sessionStopped).stop_reason).toBe("user_canceled");
    expect(STREAM_PAYLOADS[STREAM_EVENTS.error].parse(ex.errorBusy).code).toBe("session_busy");
    expect(KEEPALIVE_MS).toBe(20_000);
  });

  it("when stream frames are malformed, then they are rejected", () => {
    expect(TranscriptSnapshotEvent.safeParse(without(ex.transcriptSnapshot, "reset")).success).toBe(
      false,
    );
    expect(
      TranscriptSnapshotEvent.safeParse({ ...ex.transcriptSnapshot, epoch: "2" }).success,
    ).toBe(false);
    expect(TranscriptDeltaEvent.safeParse(without(ex.transcriptDelta, "has_more")).success).toBe(
      false,
    );
    expect(SessionCommandsChangedEvent.safeParse({ session_id: "s" }).success).toBe(false);
    expect(
      DaemonTranscriptSnapshotEvent.safeParse({ ...ex.transcriptSnapshotReset, reason: "bored" })
        .success,
    ).toBe(false);
  });

  it("when a client resumes, then the query carries the fence and the daemon parses it", () => {
    const params = streamSearchParams({ afterSequence: 920, epoch: 2, generation: 7 });
    expect(params.toString()).toBe("frames=transcript&after_sequence=920&epoch=2&generation=7");
    expect(StreamQuery.parse(Object.fromEntries(params))).toEqual({
      frames: "transcript",
      after_sequence: 920,
      epoch: 2,
      generation: 7,
    });
    expect(streamSearchParams({ afterSequence: 0 }).toString()).toBe("frames=transcript");
    for (const bad of [{ frames: "raw" }, { epoch: "-1" }, { generation: "x" }, { replay: "1" }]) {
      expect(StreamQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
