// Test support for the replay tests: drive a session through the HTTP API of a test daemon
// and read what the demo agent says it received (its own state file).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TranscriptPage } from "../../src/contract/transcript";
import type { TestDaemon } from "./daemon";

export type Received = { messageCount: number; omitted: number; bytes: number; text: string };

/** What the demo agent recorded about the replays it received (its own state file). */
export function receivedReplays(
  agentDir: string,
  daemon: TestDaemon,
  sessionId: string,
): Received[] {
  const acp = daemon.ledger.store.getSession(sessionId)?.acp_session_id;
  const file = join(agentDir, "demo-agent", `${acp}.json`);
  return (JSON.parse(readFileSync(file, "utf8")) as { receivedReplays: Received[] })
    .receivedReplays;
}

export async function promptAndWait(daemon: TestDaemon, sessionId: string, text: string) {
  const response = await daemon.prompt(sessionId, text);
  if (response.status !== 200 && response.status !== 202) {
    throw new Error(`prompt refused: ${await response.text()}`);
  }
  await daemon.waitForSession(sessionId, (s) => s.activity === undefined);
}

export async function transcript(daemon: TestDaemon, sessionId: string) {
  const response = await daemon.call(
    "GET",
    `${daemon.sessionPath(sessionId)}/transcript?limit=1000`,
  );
  return TranscriptPage.parse(await response.json()).entries.map((entry) => entry.message);
}

/** The text of the newest assistant message that has any. */
export function lastReply(messages: Awaited<ReturnType<typeof transcript>>): string {
  for (const message of [...messages].reverse()) {
    if (message.role !== "assistant") continue;
    const text = message.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    if (text !== "") return text;
  }
  return "";
}

/** Stops the session's agent; the next prompt resumes it (there is no start). */
export async function stopAndWait(daemon: TestDaemon, sessionId: string) {
  const response = await daemon.call("POST", `${daemon.sessionPath(sessionId)}/stop`, {
    body: {},
  });
  if (response.status !== 204) throw new Error(`stop refused: ${await response.text()}`);
  await daemon.waitForSession(sessionId, (s) => s.state === "stopped");
}

export async function compactAndWait(daemon: TestDaemon, sessionId: string) {
  const response = await daemon.call("POST", `${daemon.sessionPath(sessionId)}/compact`, {
    body: {},
  });
  if (response.status !== 202) throw new Error(`compact refused: ${await response.text()}`);
  await daemon.waitForSession(sessionId, (s) => s.activity === undefined);
}

/** Every prompt text the demo agent got in one of its sessions, from its state file. */
export function promptsReceived(agentDir: string, acpSessionId: string): string[] {
  const file = join(agentDir, "demo-agent", `${acpSessionId}.json`);
  const state = JSON.parse(readFileSync(file, "utf8")) as {
    history: { kind: string; text?: string }[];
  };
  return state.history.flatMap((entry) => (entry.kind === "user" ? [entry.text ?? ""] : []));
}

export function replaysIn(agentDir: string, acpSessionId: string): Received[] {
  const file = join(agentDir, "demo-agent", `${acpSessionId}.json`);
  return (JSON.parse(readFileSync(file, "utf8")) as { receivedReplays: Received[] })
    .receivedReplays;
}
