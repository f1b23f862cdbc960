// One session's memory, persisted as `<stateDir>/<sessionId>.json` after every change that
// matters, so `session/load` in a later process restores it and replays the history. The file
// is parsed with zod on the way in: a hand-edited or older file is an error, not a guess.
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { z } from "../../src/contract/zod";
import { ArmedCompaction } from "./scenarios";

const ToolKind = z.enum([
  "read",
  "edit",
  "delete",
  "move",
  "search",
  "execute",
  "think",
  "fetch",
  "switch_mode",
  "other",
]);

export const HistoryEntry = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("user"), text: z.string() }),
  z.object({ kind: z.literal("agent"), messageId: z.string(), text: z.string() }),
  z.object({ kind: z.literal("thought"), messageId: z.string(), text: z.string() }),
  z.object({
    kind: z.literal("tool"),
    toolCallId: z.string(),
    title: z.string(),
    toolKind: ToolKind,
    status: z.enum(["completed", "failed"]),
    input: z.record(z.string(), z.string()),
    output: z.string(),
  }),
  z.object({
    kind: z.literal("compaction"),
    compactionId: z.string(),
    /** The tool call that stood for it when the client lacked the compaction capability. */
    toolCallId: z.string(),
    status: z.string(),
    summary: z.nullable(z.string()),
    error: z.nullable(z.string()),
  }),
]);
export type HistoryEntry = z.infer<typeof HistoryEntry>;
export type CompactionEntry = Extract<HistoryEntry, { kind: "compaction" }>;

export const ConversationState = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  cwd: z.string(),
  history: z.array(HistoryEntry),
  turnCount: z.int().check(z.nonnegative()),
  contextUsed: z.int().check(z.nonnegative()),
  costUsd: z.number().check(z.nonnegative()),
  counters: z.object({
    message: z.int().check(z.nonnegative()),
    toolCall: z.int().check(z.nonnegative()),
    compaction: z.int().check(z.nonnegative()),
  }),
  armed: z.array(ArmedCompaction),
  reportsUsage: z.boolean(),
  /** Context replays that arrived with a prompt, in order (what a test checks byte for byte). */
  receivedReplays: z._default(
    z.array(
      z.object({
        messageCount: z.int().check(z.nonnegative()),
        omitted: z.int().check(z.nonnegative()),
        bytes: z.int().check(z.nonnegative()),
        text: z.string(),
      }),
    ),
    [],
  ),
  /** What a summary is made of: kept across compactions, as a real agent keeps its summary. */
  memory: z.object({
    goal: z.nullable(z.string()),
    decisions: z.array(z.string()),
    files: z.array(z.string()),
    questions: z.array(z.string()),
  }),
});
export type ConversationState = z.infer<typeof ConversationState>;

export function createConversation(sessionId: string, cwd: string): ConversationState {
  return {
    version: 1,
    sessionId,
    cwd,
    history: [],
    turnCount: 0,
    contextUsed: 0,
    costUsd: 0,
    counters: { message: 0, toolCall: 0, compaction: 0 },
    armed: [],
    reportsUsage: true,
    receivedReplays: [],
    memory: { goal: null, decisions: [], files: [], questions: [] },
  };
}

export type IdKind = keyof ConversationState["counters"];

const ID_PREFIX: Record<IdKind, string> = { message: "msg", toolCall: "tool", compaction: "cmp" };

/**
 * Next id of a kind (`cmp-3`, `msg-12`…): per session, persisted, so never reused after load.
 * A client may hold several of our sessions as one conversation (a restart without load, a
 * fork), so ids are unique per state dir: sessions after `demo-1` qualify them
 * (`demo-2-msg-1`), while `demo-1` keeps the short form the hand-piped examples show.
 */
export function nextId(state: ConversationState, kind: IdKind): string {
  state.counters[kind] += 1;
  const id = `${ID_PREFIX[kind]}-${state.counters[kind]}`;
  return state.sessionId === "demo-1" ? id : `${state.sessionId}-${id}`;
}

function stateFile(stateDir: string, sessionId: string): string {
  return join(stateDir, `${sessionId}.json`);
}

/**
 * Reserves `demo-<n>` by creating its file exclusively, so agents sharing a state dir (one
 * process per session) never hand out the same id.
 */
export function claimSessionId(stateDir: string): string {
  mkdirSync(stateDir, { recursive: true });
  let number = readdirSync(stateDir).filter((name) => name.endsWith(".json")).length + 1;
  for (;;) {
    const sessionId = `demo-${number}`;
    try {
      closeSync(openSync(stateFile(stateDir, sessionId), "wx"));
      return sessionId;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      number += 1;
    }
  }
}

export function saveConversation(stateDir: string, state: ConversationState): void {
  const file = stateFile(stateDir, state.sessionId);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(temporary, file);
}

/** The stored state, or null when this state dir has never seen the session. */
export function loadConversation(stateDir: string, sessionId: string): ConversationState | null {
  if (!/^[\w.-]+$/.test(sessionId)) return null;
  let text: string;
  try {
    text = readFileSync(stateFile(stateDir, sessionId), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  if (text.trim() === "") return null;
  return ConversationState.parse(JSON.parse(text));
}
