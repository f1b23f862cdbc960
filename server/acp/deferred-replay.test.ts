// The deferred replay (ADR 0086): a Compact now turn before a derived session's first
// ordinary prompt neither carries nor consumes the replay; it stays stored in SQLite and
// rides the next ordinary prompt exactly once, across a stop and a daemon restart, to an
// agent that cannot `session/load` too. A failed clear is logged and the obligation kept.
// Real agents, real ledger. (With `session/load`: derive-routes.test.ts.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SessionEnvelope } from "../../src/contract/session";
import { demoAgent, startTestDaemon, type TestDaemon } from "../testing/daemon";
import {
  compactAndWait,
  promptAndWait,
  promptsReceived,
  replaysIn,
  stopAndWait,
} from "../testing/session-driver";

const agentDir = mkdtempSync(join(tmpdir(), "tideline-deferred-agents-"));
const agents = () => [
  demoAgent(agentDir, "demo"),
  demoAgent(agentDir, "forgetful", ["--no-load-session"]),
];
const daemons: TestDaemon[] = [];
afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.stop();
});
afterAll(() => rmSync(agentDir, { recursive: true, force: true }));

async function daemonWith(options: Parameters<typeof startTestDaemon>[0] = {}) {
  const daemon = await startTestDaemon({ agents: agents(), ...options });
  daemons.push(daemon);
  return daemon;
}

function acpOf(daemon: TestDaemon, sessionId: string): string {
  const acp = daemon.ledger.store.getSession(sessionId)?.acp_session_id;
  if (acp === undefined) throw new Error("no agent session yet");
  return acp;
}

/** A conversation forked into the agent that cannot load: the fork owes its replay. */
async function forkedSession(daemon: TestDaemon) {
  const source = await daemon.createActiveSession("demo");
  await promptAndWait(daemon, source.id, "Plan the billing migration in src/billing.ts");
  await promptAndWait(daemon, source.id, "Which tests first?");
  const response = await daemon.call("POST", `${daemon.sessionPath(source.id)}/fork`, {
    body: { agent_name: "forgetful" },
  });
  const { session } = SessionEnvelope.parse(await response.json());
  await daemon.waitForSession(
    session.id,
    (s) => s.state === "active" && s.available_commands.length > 0,
  );
  const owed = daemon.ledger.replays.get(session.id);
  expect(owed?.acpSessionId).toBe(acpOf(daemon, session.id));
  return { id: session.id, owed: owed?.text ?? "" };
}

describe("a Compact now turn before the first ordinary prompt", () => {
  it("when /compact comes first, then it goes out bare, the replay stays stored, and the next prompt carries it exactly once", async () => {
    const daemon = await daemonWith();
    const { id, owed } = await forkedSession(daemon);
    const acp = acpOf(daemon, id);

    await compactAndWait(daemon, id);
    expect(promptsReceived(agentDir, acp)).toEqual(["/compact"]);
    expect(replaysIn(agentDir, acp)).toEqual([]);
    expect(daemon.ledger.replays.get(id)?.text).toBe(owed);

    await compactAndWait(daemon, id);
    await promptAndWait(daemon, id, "Go on.");
    await promptAndWait(daemon, id, "And then?");
    expect(promptsReceived(agentDir, acp)).toEqual(["/compact", "/compact", "Go on.", "And then?"]);
    expect(replaysIn(agentDir, acp).map((r) => r.text)).toEqual([owed]);
    expect(daemon.ledger.replays.get(id)).toBeUndefined();
  }, 60_000);

  it("when the session is stopped after /compact, then the new agent session takes over the stored replay as it was and gets it exactly once", async () => {
    const daemon = await daemonWith();
    const { id, owed } = await forkedSession(daemon);
    const compacted = acpOf(daemon, id);
    await compactAndWait(daemon, id);
    await stopAndWait(daemon, id);
    expect(daemon.ledger.replays.get(id)?.text).toBe(owed);

    await promptAndWait(daemon, id, "Where were we?");
    await promptAndWait(daemon, id, "Next.");
    const fresh = acpOf(daemon, id);
    expect(fresh).not.toBe(compacted);
    expect(replaysIn(agentDir, compacted)).toEqual([]);
    expect(replaysIn(agentDir, fresh).map((r) => r.text)).toEqual([owed]);
    expect(daemon.ledger.replays.get(id)).toBeUndefined();
  }, 60_000);

  it("when the daemon restarts between /compact and the prompt, then the stored obligation survives and arrives exactly once", async () => {
    const first = await daemonWith();
    const { id, owed } = await forkedSession(first);
    const compacted = acpOf(first, id);
    await compactAndWait(first, id);
    await first.close();
    daemons.splice(daemons.indexOf(first), 1);

    const second = await daemonWith({ dir: first.dir });
    expect(second.ledger.replays.get(id)).toMatchObject({ acpSessionId: compacted, text: owed });
    await promptAndWait(second, id, "Where were we?");
    await promptAndWait(second, id, "Next.");
    const fresh = acpOf(second, id);
    expect(replaysIn(agentDir, compacted)).toEqual([]);
    expect(replaysIn(agentDir, fresh).map((r) => r.text)).toEqual([owed]);
    expect(second.ledger.replays.get(id)).toBeUndefined();
    const bounded = second.logs().filter((line) => line.startsWith("session.replay.bounded "));
    expect(bounded).toEqual([]); // taken over, not rebuilt
  }, 60_000);
});

describe("clearing the obligation", () => {
  it("when the delete cannot be committed, then the daemon logs it and keeps the obligation, and delivers it again until clearing works", async () => {
    const daemon = await daemonWith();
    const { id, owed } = await forkedSession(daemon);
    const acp = acpOf(daemon, id);
    const saboteur = new Database(join(daemon.dir, "tideline.db"));
    saboteur.exec(`CREATE TRIGGER keep_replays BEFORE DELETE ON pending_replays
      BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);

    await promptAndWait(daemon, id, "Go on.");
    const failures = daemon
      .logs()
      .filter((line) => line.startsWith("session.replay.consumption_persist_failed "));
    expect(failures.map((line) => JSON.parse(line.slice(line.indexOf(" ") + 1)))).toEqual([
      { session_id: id, error: "injected failure" },
    ]);
    expect(daemon.ledger.replays.get(id)?.text).toBe(owed);

    saboteur.exec("DROP TRIGGER keep_replays");
    saboteur.close();
    await promptAndWait(daemon, id, "Again.");
    await promptAndWait(daemon, id, "Once more.");
    expect(replaysIn(agentDir, acp).map((r) => r.text)).toEqual([owed, owed]);
    expect(daemon.ledger.replays.get(id)).toBeUndefined();
  }, 60_000);
});
