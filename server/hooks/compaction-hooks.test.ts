// Compaction hooks against a real ledger (SQLite) and real hook processes: which rows
// fire which hook, the payloads, matchers, failures, deadlines and restarts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openLedger } from "../ledger/open-ledger";
import { type HookBench, hookBench } from "../testing/hook-bench";
import { frames, openTestSession, type TestSession, tempDatabase } from "../testing/ledger-session";
import { compactionHookEvents } from "./compaction-hook-events";
import { type CompactionHooks, startCompactionHooks } from "./compaction-hooks";
import type { HookDeclaration } from "./hook-config";

/** Alive and not a zombie (an orphan's zombie waits for a reaper the container may lack). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

let bench: HookBench;
let t: TestSession;
let hooks: CompactionHooks | undefined;
let logs: string[];
afterEach(async () => {
  await hooks?.close();
  hooks = undefined;
  t?.ledger.close();
  bench?.cleanup();
});

function start(declarations: HookDeclaration[], session: TestSession = t) {
  logs = [];
  hooks = startCompactionHooks({
    declarations,
    recorder: session.ledger.recorder,
    store: session.ledger.store,
    reader: session.ledger.reader,
    log: (line) => logs.push(line),
    now: () => new Date("2026-10-08T14:02:11.000Z"),
  });
}

function requestCompaction(turnId: string) {
  t.ledger.recorder.recordCompactionRequested(t.sessionId, turnId, {
    command: "compact",
    requested_by: "cli",
  });
}

describe("compaction hooks", () => {
  it("when a requested compaction runs in_progress → completed, then pre and post fire once each with the documented payloads", async () => {
    bench = hookBench();
    t = openTestSession();
    start([bench.declaration("context.pre_compact"), bench.declaration("context.post_compact")]);
    requestCompaction("t_42");
    t.ledger.recorder.recordUpdate(t.sessionId, "t_42", frames.compaction("c1", "in_progress"));
    t.ledger.recorder.recordUpdate(t.sessionId, "t_42", frames.chunk("c1", "The billing "));
    t.ledger.recorder.recordUpdate(
      t.sessionId,
      "t_42",
      frames.compaction("c1", "completed", {
        summary: [{ type: "text", text: "The billing migration moved." }],
      }),
    );
    const payloads = await bench.waitForPayloads(2);
    // close() returns once every hook of the commits so far has run: nothing more can come.
    await hooks?.close();
    const session = t.ledger.store.getSession(t.sessionId);
    const common = {
      timestamp: "2026-10-08T14:02:11.000Z",
      session_id: t.sessionId,
      agent_name: "demo",
      workspace_id: session?.workspace_id,
      workspace: "/work/project",
      turn_id: "t_42",
      compaction_id: "c1",
      trigger: "requested",
    };
    expect(bench.payloads()).toEqual([
      { event: "context.pre_compact", ...common },
      {
        event: "context.post_compact",
        ...common,
        status: "completed",
        summary: "The billing migration moved.",
      },
    ]);
    expect(payloads).toHaveLength(2);
    expect(logs).toEqual([]);
  });

  it("when the agent compacts on its own, then trigger is agent and a requested-only hook stays silent", async () => {
    bench = hookBench();
    t = openTestSession();
    start([
      bench.declaration("context.post_compact", { compactionTrigger: "agent" }),
      bench.declaration("context.post_compact", { compactionTrigger: "requested" }),
    ]);
    t.ledger.recorder.recordInput(t.sessionId, "t_1", "hello");
    t.ledger.recorder.recordUpdate(t.sessionId, "t_1", frames.compaction("auto-1", "in_progress"));
    t.ledger.recorder.recordUpdate(
      t.sessionId,
      "t_1",
      frames.compaction("auto-1", "failed", { error: "context too small" }),
    );
    await bench.waitForPayloads(1);
    // close() returns once every hook of the commits so far has run: nothing more can come.
    await hooks?.close();
    expect(bench.payloads()).toEqual([
      expect.objectContaining({
        event: "context.post_compact",
        trigger: "agent",
        status: "failed",
        error: "context too small",
      }),
    ]);
  });

  it("when a compaction is first observed terminal, then pre runs before post", async () => {
    bench = hookBench();
    t = openTestSession();
    // Declared post first: the order comes from the compaction, not the file.
    start([bench.declaration("context.post_compact"), bench.declaration("context.pre_compact")]);
    t.ledger.recorder.recordUpdate(t.sessionId, null, frames.compaction("c9", "completed"));
    const payloads = await bench.waitForPayloads(2);
    expect(payloads.map((p) => p.event)).toEqual(["context.pre_compact", "context.post_compact"]);
    expect(payloads[0]).toMatchObject({ turn_id: "", trigger: "agent" });
    expect(payloads[1]).toMatchObject({ status: "completed", turn_id: "" });
    expect(payloads[1]).not.toHaveProperty("summary");
  });

  it("when the agent corrects a finished compaction, then no hook fires again and post kept the first terminal snapshot", async () => {
    bench = hookBench();
    t = openTestSession();
    start([bench.declaration("context.pre_compact"), bench.declaration("context.post_compact")]);
    const summary = [{ type: "text", text: "Done." }];
    t.ledger.recorder.recordUpdate(t.sessionId, "t_1", frames.compaction("c1", "in_progress"));
    t.ledger.recorder.recordUpdate(
      t.sessionId,
      "t_1",
      frames.compaction("c1", "completed", { summary }),
    );
    await bench.waitForPayloads(2);
    const corrected = t.ledger.recorder.recordUpdate(
      t.sessionId,
      "t_1",
      frames.compaction("c1", "failed", { error: "actually not" }),
    );
    // The correction is recorded (a new snapshot row) …
    expect(corrected.map((row) => row.type)).toEqual(["compaction"]);
    // close() returns once every hook of the commits so far has run: nothing more can come.
    await hooks?.close();
    // … and fires nothing.
    expect(bench.payloads().map((p) => [p.event, p.status])).toEqual([
      ["context.pre_compact", undefined],
      ["context.post_compact", "completed"],
    ]);
  });

  it("when a hook fails, then a warning names it, the recording is untouched and the next hook still runs", async () => {
    bench = hookBench();
    t = openTestSession();
    start([
      bench.declaration("context.pre_compact", {
        name: "broken",
        command: "/bin/sh",
        args: ["-c", "echo 'no webhook configured' >&2; exit 3"],
      }),
      bench.declaration("context.pre_compact", { name: "missing", command: "/nonexistent/hook" }),
      bench.declaration("context.pre_compact"),
    ]);
    const rows = t.ledger.recorder.recordUpdate(
      t.sessionId,
      "t_1",
      frames.compaction("c1", "in_progress"),
    );
    expect(rows.map((row) => row.type)).toEqual(["compaction", "session.compaction_fired"]);
    await bench.waitForPayloads(1);
    // close() returns once every hook of the commits so far has run: nothing more can come.
    await hooks?.close();
    expect(logs).toEqual([
      expect.stringMatching(
        /^warning: hook broken \(context\.pre_compact, session .+, compaction c1\) exited with code 3; stderr: no webhook configured$/,
      ),
      expect.stringMatching(
        /^warning: hook missing .* could not start \/nonexistent\/hook: ENOENT$/,
      ),
    ]);
    expect(t.ledger.reader.openCompactions(t.sessionId)).toEqual(["c1"]);
  });

  it("when a hook outlives its timeout, then it and what it started are killed, a warning is logged, and ingest never waited", async () => {
    bench = hookBench();
    t = openTestSession();
    const pidFile = join(bench.dir, "sleeper.pid");
    start([
      bench.declaration("context.pre_compact", {
        name: "slow",
        command: "/bin/sh",
        // The sleep is a grandchild: killing only the shell would leave it running.
        args: ["-c", `sleep 30 & echo $! > "${pidFile}"; wait`],
        timeoutMs: 300,
      }),
      bench.declaration("context.pre_compact"),
    ]);
    const before = performance.now();
    t.ledger.recorder.recordUpdate(t.sessionId, "t_1", frames.compaction("c1", "in_progress"));
    t.ledger.recorder.recordUpdate(t.sessionId, "t_1", frames.compaction("c1", "completed"));
    expect(performance.now() - before).toBeLessThan(100);
    const payloads = await bench.waitForPayloads(1);
    expect(payloads[0]?.event).toBe("context.pre_compact");
    expect(logs).toEqual([
      expect.stringMatching(/^warning: hook slow .* timed out after 300 ms and was killed$/),
    ]);
    const sleeper = Number(readFileSync(pidFile, "utf8").trim());
    expect(isRunning(sleeper)).toBe(false);
  });

  it("when the daemon restarts mid-compaction, then post still fires once with the trigger from the ledger, and pre does not fire again", async () => {
    bench = hookBench();
    const db = tempDatabase();
    try {
      t = openTestSession(db.path);
      start([bench.declaration("context.pre_compact"), bench.declaration("context.post_compact")]);
      requestCompaction("t_7");
      t.ledger.recorder.recordUpdate(t.sessionId, "t_7", frames.compaction("c1", "in_progress"));
      await bench.waitForPayloads(1);
      await hooks?.close();
      t.ledger.close();

      const reopened = openLedger(db.path);
      t = { ...t, ledger: reopened };
      start([bench.declaration("context.pre_compact"), bench.declaration("context.post_compact")]);
      reopened.recorder.recordUpdate(
        t.sessionId,
        "t_7",
        frames.compaction("c1", "in_progress", { summary: [] }),
      );
      reopened.recorder.recordUpdate(t.sessionId, "t_7", frames.compaction("c1", "completed"));
      reopened.recorder.recordUpdate(t.sessionId, "t_7", frames.compaction("c1", "failed"));
      await bench.waitForPayloads(2);
      // close() returns once every hook of the commits so far has run: nothing more can come.
      await hooks?.close();
      expect(bench.payloads().map((p) => [p.event, p.trigger, p.status])).toEqual([
        ["context.pre_compact", "requested", undefined],
        ["context.post_compact", "requested", "completed"],
      ]);
    } finally {
      db.cleanup();
    }
  });
});

describe("compactionHookEvents", () => {
  const row = (type: string, content: Record<string, unknown>, turn: string | null = "t") => ({
    session_id: "s",
    sequence: 1,
    turn_id: turn,
    type,
    content,
    created_at: "2026-01-01T00:00:00.000Z",
  });

  it("when rows are hostile or unrelated, then they imply no hook", () => {
    expect(
      compactionHookEvents([
        row("compaction", { status: "completed", terminal: true }),
        row("compaction", { compaction_id: 7, status: "completed", terminal: true }),
        row("compaction", { compaction_id: "c", status: "completed", terminal: "true" }),
        row("compaction", { compaction_id: "c", status: "completed" }),
        row("session.compaction_fired", { compaction_id: "" }),
        row("agent.unknown_update", { compaction_id: "c", terminal: true }),
      ]),
    ).toEqual([]);
  });

  it("when the fired row carries its payload under raw (the CompozyOS wire form), then it is read there", () => {
    expect(
      compactionHookEvents([
        row("session.compaction_fired", { raw: { compaction_id: "c", trigger: "requested" } }),
      ]),
    ).toEqual([
      {
        event: "context.pre_compact",
        sessionId: "s",
        turnId: "t",
        compactionId: "c",
        trigger: "requested",
      },
    ]);
  });
});
