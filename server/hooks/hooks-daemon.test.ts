// Hooks in the whole daemon: real demo agent processes, the HTTP API, and hook commands
// that append their stdin to a file.
import { afterEach, describe, expect, it } from "vitest";
import { cliIn } from "../testing/cli-runner";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { type HookBench, hookBench, settle } from "../testing/hook-bench";

let daemon: TestDaemon | undefined;
let bench: HookBench;
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  bench?.cleanup();
});

async function compact(d: TestDaemon, id: string) {
  const response = await d.call("POST", `${d.sessionPath(id)}/compact`, { body: {} });
  expect(response.status).toBe(202);
  return ((await response.json()) as { prompt_id: string }).prompt_id;
}

describe("compaction hooks in the daemon", () => {
  it("when Compact now runs, then pre and post fire with trigger requested and the compaction turn's id", async () => {
    bench = hookBench();
    daemon = await startTestDaemon({
      hooks: [bench.declaration("context.pre_compact"), bench.declaration("context.post_compact")],
    });
    const session = await daemon.createActiveSession();
    const turnId = await compact(daemon, session.id);
    const payloads = await bench.waitForPayloads(2);
    expect(payloads.map((p) => [p.event, p.trigger, p.turn_id, p.session_id])).toEqual([
      ["context.pre_compact", "requested", turnId, session.id],
      ["context.post_compact", "requested", turnId, session.id],
    ]);
    expect(payloads[1]).toMatchObject({
      status: "completed",
      agent_name: "demo",
      workspace_id: daemon.ws,
      compaction_id: "cmp-1",
      summary: expect.stringContaining("Conversation summary"),
    });
  });

  it("when the agent compacts on its own between turns, then trigger agent, no turn id, and a requested-only hook stays silent", async () => {
    bench = hookBench();
    daemon = await startTestDaemon({
      hooks: [
        bench.declaration("context.post_compact", { compactionTrigger: "agent" }),
        bench.declaration("context.pre_compact", { compactionTrigger: "requested" }),
      ],
    });
    const api = await daemon.listen();
    const session = await daemon.createActiveSession();
    expect((await cliIn(api, ["session", "prompt", session.id, "/demo idle", "--wait"])).code).toBe(
      0,
    );
    const payloads = await bench.waitForPayloads(1);
    await settle();
    expect(bench.payloads()).toHaveLength(1);
    expect(payloads[0]).toMatchObject({
      event: "context.post_compact",
      trigger: "agent",
      status: "completed",
      turn_id: "",
    });
  });

  it("when the agent corrects completed → failed in the same turn, then post fired once, with completed", async () => {
    bench = hookBench();
    daemon = await startTestDaemon({ hooks: [bench.declaration("context.post_compact")] });
    const api = await daemon.listen();
    const session = await daemon.createActiveSession();
    expect(
      (await cliIn(api, ["session", "prompt", session.id, "/demo correct", "--wait"])).code,
    ).toBe(0);
    const run = await cliIn(api, ["session", "compact", session.id, "-o", "json"]);
    expect(JSON.parse(run.stdout).outcome).toBe("failed");
    await bench.waitForPayloads(1);
    await settle();
    expect(bench.payloads().map((p) => p.status)).toEqual(["completed"]);
  });

  it("when a hook is slow, then the compaction turn ends without waiting for it, and the hook still finishes", async () => {
    bench = hookBench();
    daemon = await startTestDaemon({
      hooks: [
        bench.declaration("context.pre_compact", {
          command: "/bin/sh",
          args: ["-c", 'sleep 2; cat >> "$HOOK_OUT"'],
          timeoutMs: 10_000,
        }),
      ],
    });
    const api = await daemon.listen();
    const session = await daemon.createActiveSession();
    const run = await cliIn(api, ["session", "compact", session.id, "-o", "json"]);
    expect(JSON.parse(run.stdout).outcome).toBe("completed");
    // The turn is over and the hook has not written yet: nothing waited for it.
    expect(bench.payloads()).toEqual([]);
    const payloads = await bench.waitForPayloads(1, 10_000);
    expect(payloads[0]).toMatchObject({ event: "context.pre_compact", trigger: "requested" });
  });
});
