// The daemon as a real process: killed with SIGKILL mid-turn and started again on the same
// data directory, it still has every committed row, and closes what the dead agent left.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DaemonEventList as EventList } from "../src/contract/history";
import { SessionEnvelope, WorkspaceList } from "../src/contract/session";
import { DaemonUsageEnvelope as UsageEnvelope } from "../src/contract/usage";
import { processAlive } from "./acp/process-group";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tideline-main-"));
const children: ChildProcess[] = [];

function spawnDaemon(
  port: string,
  dataDir = join(dir, "data"),
  extra: readonly string[] = [],
): ChildProcess {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      MAIN,
      "--port",
      port,
      "--data-dir",
      dataDir,
      "--workspace",
      join(dir, "ws"),
      "--no-welcome",
      ...extra,
    ],
    { env: { ...process.env, DEMO_AGENT_SPEED: "0" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  children.push(child);
  return child;
}

function startDaemon(
  dataDir?: string,
  extra: readonly string[] = [],
): Promise<{ child: ChildProcess; base: string }> {
  const child = spawnDaemon("0", dataDir, extra);
  return new Promise((resolve, reject) => {
    let log = "";
    const timer = setTimeout(() => reject(new Error(`daemon did not start:\n${log}`)), 20_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1];
      if (port !== undefined) {
        clearTimeout(timer);
        resolve({ child, base: `http://127.0.0.1:${port}` });
      }
    });
  });
}

/** The parent of `pid`, from /proc: the agent that started a grandchild. */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

async function until<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe("daemon restart", () => {
  it("when the daemon is killed mid-turn and restarted, then every committed row is there and the context stays unknown after the compaction", async () => {
    const first = await startDaemon();
    const post = (path: string, body: unknown = {}) =>
      fetch(`${first.base}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const { workspaces } = WorkspaceList.parse(
      await (await fetch(`${first.base}/api/workspaces`)).json(),
    );
    const ws = workspaces[0]?.id ?? "";
    const created = SessionEnvelope.parse(
      await (await post("/api/sessions", { workspace: ws })).json(),
    );
    const path = `/api/workspaces/${ws}/sessions/${created.session.id}`;
    const session = (base: string) => async () =>
      SessionEnvelope.parse(await (await fetch(`${base}${path}`)).json()).session;
    await until(
      session(first.base),
      (s) => s.state === "active" && s.available_commands.length > 0,
    );

    for (const [index, step] of [
      "/demo fill 30",
      "/demo no-usage",
      null,
      "/demo slow 30",
    ].entries()) {
      const response =
        step === null
          ? await post(`${path}/compact`)
          : await post(`${path}/prompt`, {
              message: step,
              message_id: `m-${index}`,
              idempotency_key: `k-${index}`,
            });
      expect(response.status).toBe(step === null ? 202 : 200);
      await until(session(first.base), (s) => s.activity === undefined);
    }
    const unknownBefore = UsageEnvelope.parse(
      await (await fetch(`${first.base}${path}/usage`)).json(),
    );
    expect(unknownBefore.usage.context.state).toBe("unknown");

    // A compaction that stays in progress for 30 s: kill the daemon in the middle of it.
    expect((await post(`${path}/compact`)).status).toBe(202);
    await until(
      async () =>
        EventList.parse(
          await (await fetch(`${first.base}${path}/events?type=compaction&limit=1000`)).json(),
        ).events,
      (rows) =>
        rows.some(
          (row) =>
            row.content.status === "in_progress" &&
            rows.filter((r) => r.content.compaction_id === row.content.compaction_id).length === 1,
        ),
    );
    const before = EventList.parse(
      await (await fetch(`${first.base}${path}/events?limit=1000`)).json(),
    ).events;
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));

    const second = await startDaemon();
    const after = EventList.parse(
      await (await fetch(`${second.base}${path}/events?limit=1000`)).json(),
    ).events;
    expect(after.slice(0, before.length)).toEqual(before);
    const added = after.slice(before.length);
    expect(added.at(-1)).toMatchObject({
      type: "session.state",
      content: { state: "stopped", reason: "daemon restarted" },
    });
    expect(added.find((row) => row.type === "compaction")?.content).toMatchObject({
      status: "cancelled",
      source: "daemon",
      terminal: true,
    });
    expect(added.find((row) => row.type === "prompt.completed")?.content).toMatchObject({
      stop_reason: "agent_exited",
    });
    expect((await session(second.base)()).state).toBe("stopped");
    const usage = UsageEnvelope.parse(await (await fetch(`${second.base}${path}/usage`)).json());
    expect(usage.usage.context.state).toBe("unknown");
    expect(usage.usage.context.used).toBeUndefined();
    expect(usage.usage.context.cleared_by).toBeDefined();

    second.child.kill("SIGTERM");
    const code = await new Promise((resolve) =>
      second.child.once("exit", (exitCode) => resolve(exitCode)),
    );
    expect(code).toBe(0);
  }, 90_000);
});

describe("daemon start", () => {
  it("when the port is taken, then it says so in one line and exits 1", async () => {
    const running = await startDaemon();
    // Its own data dir: a second daemon must not touch the first one's sessions.
    const taken = spawnDaemon(new URL(running.base).port, join(dir, "other-data"));
    let log = "";
    taken.stderr?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
    });
    const code = await new Promise((resolve) => taken.once("exit", resolve));
    expect(code).toBe(1);
    expect(log).toMatch(/cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/);
    expect(log).not.toMatch(/\n\s+at /);
    running.child.kill("SIGTERM");
  }, 30_000);

  it("when the replay budget breaks its rule, then the daemon refuses to start in one line and exits 2", async () => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        MAIN,
        "--port",
        "0",
        "--data-dir",
        join(dir, "budget-data"),
        "--replay-max-bytes",
        "2048",
        "--replay-max-message-bytes",
        "4096",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    children.push(child);
    let log = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(log).toBe(
      "tideline: --replay-max-message-bytes must be between 1024 and --replay-max-bytes (2048), got 4096\n",
    );
  }, 30_000);
});

describe("daemon exit and agent trees", () => {
  const fixture = fileURLToPath(new URL("./testing/fixtures/scripted-agent.mjs", import.meta.url));
  const scripted = ["--agent", `scripted=${process.execPath} ${fixture}`];

  /** A session of the scripted agent holding a turn, with a grandchild that ignores SIGTERM. */
  async function grandchildOf(base: string): Promise<number> {
    const { workspaces } = WorkspaceList.parse(
      await (await fetch(`${base}/api/workspaces`)).json(),
    );
    const ws = workspaces[0]?.id ?? "";
    const post = (path: string, body: unknown = {}) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const created = SessionEnvelope.parse(
      await (await post("/api/sessions", { workspace: ws, agent_name: "scripted" })).json(),
    );
    const path = `/api/workspaces/${ws}/sessions/${created.session.id}`;
    await until(
      async () => SessionEnvelope.parse(await (await fetch(`${base}${path}`)).json()).session,
      (s) => s.state === "active",
    );
    const hold = { message: "orphan-hold", message_id: "m-hold", idempotency_key: "k-hold" };
    expect((await post(`${path}/prompt`, hold)).status).toBe(200);
    const chunks = await until(
      async () =>
        EventList.parse(
          await (await fetch(`${base}${path}/events?type=agent.message_chunk&limit=10`)).json(),
        ).events,
      (rows) => rows.length > 0,
    );
    const text = (chunks[0]?.content.content as { text?: string } | undefined)?.text ?? "";
    const pid = Number(/^grandchild (\d+)$/.exec(text)?.[1]);
    expect(processAlive(pid)).toBe(true);
    return pid;
  }

  const stray: number[] = [];
  afterAll(() => {
    for (const pid of stray) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone, as it should be.
      }
    }
  });

  it("when the daemon gets SIGTERM, SIGINT or SIGHUP, then it exits 0 and no process of an agent tree is left", async () => {
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
      const daemon = await startDaemon(join(dir, `exit-${signal}`), scripted);
      const pid = await grandchildOf(daemon.base);
      stray.push(pid);
      daemon.child.kill(signal);
      const code = await new Promise((resolve) => daemon.child.once("exit", resolve));
      expect(code).toBe(0);
      expect(
        await until(
          async () => processAlive(pid),
          (alive) => !alive,
          1000,
        ),
      ).toBe(false);
    }
  }, 60_000);

  it("when the daemon is SIGKILLed, then its agent tree survives it and the next start on the data dir ends it", async () => {
    const dataDir = join(dir, "killed");
    const first = await startDaemon(dataDir, scripted);
    const pid = await grandchildOf(first.base);
    stray.push(pid);
    const agent = parentOf(pid);
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    // The agent sees its input end and exits: the last process that could take the
    // grandchild with it. Once it is gone, the grandchild's survival is the answer.
    expect(
      await until(
        async () => processAlive(agent),
        (alive) => !alive,
        5000,
      ),
    ).toBe(false);
    expect(processAlive(pid)).toBe(true);
    const second = await startDaemon(dataDir, scripted);
    // TERM at start, KILL after the default grace (1 s): this grandchild ignores TERM.
    expect(
      await until(
        async () => processAlive(pid),
        (alive) => !alive,
        5000,
      ),
    ).toBe(false);
    second.child.kill("SIGTERM");
    await new Promise((resolve) => second.child.once("exit", resolve));
  }, 60_000);
});
