// Test helper: a real ledger (SQLite in memory or in a temp file) with one session, a
// controllable clock and short-hand frame builders. Used by the ledger tests and benches.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Ledger } from "../domain/session-recorder-api";
import { type LedgerOptions, openLedger } from "../ledger/open-ledger";

export type TestSession = { ledger: Ledger; sessionId: string; tick(ms?: number): void };

/** A clock that only moves when told, so `created_at` values are predictable. */
export function testClock(start = Date.parse("2026-01-01T00:00:00.000Z")) {
  let at = start;
  return {
    now: () => new Date(at),
    tick: (ms = 1000) => {
      at += ms;
    },
  };
}

export function openTestSession(
  path = ":memory:",
  options: Omit<LedgerOptions, "now"> & { agentName?: string } = {},
): TestSession {
  const clock = testClock();
  const ledger = openLedger(path, { ...options, now: clock.now });
  const workspace = ledger.store.ensureWorkspace("/work/project", "project");
  const session = ledger.store.createSession({
    workspaceId: workspace.id,
    agentName: options.agentName ?? "demo",
  });
  return { ledger, sessionId: session.id, tick: clock.tick };
}

/** A fresh temp directory for a database file; `cleanup` removes it. */
export function tempDatabase(): { path: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "tideline-ledger-"));
  return {
    path: join(dir, "ledger.db"),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const frames = {
  text: (text: string, messageId?: string) =>
    messageId === undefined
      ? { sessionUpdate: "agent_message_chunk", content: { type: "text", text } }
      : { sessionUpdate: "agent_message_chunk", messageId, content: { type: "text", text } },
  thought: (text: string) => ({
    sessionUpdate: "agent_thought_chunk",
    content: { type: "text", text },
  }),
  tool: (toolCallId: string, fields: Record<string, unknown> = {}) => ({
    sessionUpdate: "tool_call",
    toolCallId,
    title: `Tool ${toolCallId}`,
    kind: "read",
    status: "pending",
    ...fields,
  }),
  toolUpdate: (toolCallId: string, fields: Record<string, unknown>) => ({
    sessionUpdate: "tool_call_update",
    toolCallId,
    ...fields,
  }),
  usage: (used: number, size: number, cost?: { amount: number; currency: string }) =>
    cost === undefined
      ? { sessionUpdate: "usage_update", used, size }
      : { sessionUpdate: "usage_update", used, size, cost },
  compaction: (compactionId: string, status: string, fields: Record<string, unknown> = {}) => ({
    sessionUpdate: "compaction_update",
    compactionId,
    status,
    ...fields,
  }),
  chunk: (compactionId: string, text: string) => ({
    sessionUpdate: "compaction_summary_chunk",
    compactionId,
    content: { type: "text", text },
  }),
};
