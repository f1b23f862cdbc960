// The daemon as a real process, started the way a user starts it (umask 022, a shell):
// what it leaves on disk is private, and token mode is one flag away on loopback.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DaemonSessionEnvelope } from "../src/contract/session";
import { processAlive } from "./acp/process-group";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tideline-main-security-"));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** The daemon under `sh` with umask 022, as a login shell would start it. */
function spawnDaemon(dataDir: string, extra: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const argv = [
    process.execPath,
    "--import",
    "tsx",
    MAIN,
    "--port",
    "0",
    "--data-dir",
    dataDir,
    "--workspace",
    join(dir, "ws"),
    "--no-welcome",
    ...extra,
  ];
  const quoted = argv.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
  const child = spawn("sh", ["-c", `umask 022; exec ${quoted}`], {
    env: { ...process.env, DEMO_AGENT_SPEED: "0", TIDELINE_TOKEN: "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  let log = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon did not start:\n${log}`)), 20_000);
    child.stderr?.on("data", () => {
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1];
      if (port !== undefined && /\n/.test(log.slice(log.indexOf("listening")))) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    });
    child.on("exit", () => reject(new Error(`daemon exited:\n${log}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, listening, exited, log: () => log };
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe("the daemon on disk", () => {
  it("when started with umask 022, then the data dir is 0700 and every database file 0600, an older 0755 dir included", async () => {
    const dataDir = join(dir, "loose");
    mkdirSync(dataDir, { mode: 0o755 });
    const daemon = spawnDaemon(dataDir, []);
    const base = await daemon.listening;
    // A write, so the WAL and its index exist.
    const created = await fetch(`${base}/api/sessions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(created.status).toBe(201);
    expect(mode(dataDir)).toBe(0o700);
    for (const file of ["tideline.db", "tideline.db-wal", "tideline.db-shm"]) {
      const path = join(dataDir, file);
      expect(existsSync(path), file).toBe(true);
      expect(mode(path), file).toBe(0o600);
    }
    daemon.child.kill("SIGTERM");
    expect(await daemon.exited).toBe(0);
  });
});

describe("token mode on loopback", () => {
  it("when started with --token auto, then it prints the URL to open and only that token is let in", async () => {
    const daemon = spawnDaemon(join(dir, "auto"), ["--token", "auto"]);
    const base = await daemon.listening;
    await expect.poll(() => daemon.log(), { timeout: 5000 }).toMatch(/#token=/);
    const token = /tideline: open (http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]+)\n/.exec(
      daemon.log(),
    );
    expect(token?.[1]).toBe(base);
    const value = token?.[2] ?? "";
    expect(value.length).toBeGreaterThanOrEqual(32);
    expect((await fetch(`${base}/api/workspaces`)).status).toBe(401);
    const ok = await fetch(`${base}/api/workspaces`, {
      headers: { Authorization: `Bearer ${value}` },
    });
    expect(ok.status).toBe(200);
    expect(daemon.log()).not.toMatch(/visible to other local users/);
    daemon.child.kill("SIGTERM");
    await daemon.exited;
  });

  it("when --token is given literally, then it works but start-up warns that ps shows it", async () => {
    const daemon = spawnDaemon(join(dir, "literal"), ["--token", "a-literal-token-1234"]);
    await daemon.listening;
    await expect.poll(() => daemon.log(), { timeout: 5000 }).toMatch(/prefer TIDELINE_TOKEN/);
    daemon.child.kill("SIGTERM");
    await daemon.exited;
  });

  it("when the token is too short, then the daemon refuses to start in one line and exits 2", async () => {
    const daemon = spawnDaemon(join(dir, "short"), ["--token", "s3cret"]);
    daemon.listening.catch(() => {});
    expect(await daemon.exited).toBe(2);
    expect(daemon.log()).toMatch(/--token must be at least 16 characters/);
  });
});

/** Every string inside a JSON value (an event list's texts, wherever they sit). */
function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}

describe("an agent and the daemon's secrets", () => {
  const TOKEN = "the-daemon-token-0123456789";
  const SELF_APPROVER = fileURLToPath(
    new URL("./testing/fixtures/self-approving-agent.mjs", import.meta.url),
  );

  it("when an agent reads its environment for the daemon's token and approves its own request, then it finds no token, is refused, and the request waits for the person", async () => {
    const daemon = spawnDaemon(
      join(dir, "self"),
      ["--agent", `self=${process.execPath} ${SELF_APPROVER}`],
      { TIDELINE_TOKEN: TOKEN, TIDELINE_UPSTREAM_TOKEN: "an-upstream-credential" },
    );
    const base = await daemon.listening;
    const auth = { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" };
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, { ...init, headers: { ...auth, "X-Compozy-Client-ID": "web-test" } });
    const created = await api("/api/sessions", {
      method: "POST",
      body: JSON.stringify({ agent_name: "self" }),
    });
    expect(created.status).toBe(201);
    const { session } = DaemonSessionEnvelope.parse(await created.json());
    const path = `/api/workspaces/${session.workspace_id}/sessions/${session.id}`;
    const read = async () => DaemonSessionEnvelope.parse(await (await api(path)).json()).session;
    await expect.poll(async () => (await read()).state, { timeout: 15_000 }).toBe("active");
    const prompt = await api(`${path}/prompt`, {
      method: "POST",
      body: JSON.stringify({ message: base, message_id: "m-1", idempotency_key: "k-1" }),
    });
    expect(prompt.status).toBe(200);

    const texts = async () => stringsIn(await (await api(`${path}/events?limit=1000`)).json());
    let reportLine: string | undefined;
    await expect
      .poll(
        async () => {
          reportLine = (await texts()).find((text) => text.startsWith("report"));
          return reportLine;
        },
        { timeout: 20_000 },
      )
      .toBeDefined();
    const report = JSON.parse((reportLine ?? "").replace(/^report: /, "")) as {
      tideline_env: string[];
      list_status: number;
      approve_status: number;
    };
    // Only the daemon's tree marker: no token, no upstream credential.
    expect(report.tideline_env).toEqual(["TIDELINE_AGENT_GROUP"]);
    expect(report.list_status).toBe(401);
    expect(report.approve_status).toBe(0);

    const waiting = await read();
    expect(waiting.pending_interactions).toHaveLength(1);
    const pending = waiting.pending_interactions[0];
    const reject = await api(`${path}/approve`, {
      method: "POST",
      body: JSON.stringify({
        decision: pending?.decisions?.find((decision) => decision.startsWith("reject")),
        request_id: pending?.interaction_id,
      }),
    });
    expect(reject.status).toBe(200);
    await expect
      .poll(async () => (await texts()).find((text) => text.includes("permission:")), {
        timeout: 10_000,
      })
      .toMatch(/"optionId":"reject"/);
    daemon.child.kill("SIGTERM");
    await daemon.exited;
  });
});

describe("nothing of an agent outlives the daemon", () => {
  it("when an agent's grandchild left its group (detached: true), ignores SIGTERM and holds the agent's stdout, then the daemon's shutdown still ends it", async () => {
    const pidFile = join(dir, "grandchild.pid");
    const agent = fileURLToPath(
      new URL("./testing/fixtures/detached-grandchild-agent.mjs", import.meta.url),
    );
    const daemon = spawnDaemon(join(dir, "detached"), [
      "--agent",
      `detached=${process.execPath} ${agent} ${pidFile}`,
    ]);
    const base = await daemon.listening;
    const created = await fetch(`${base}/api/sessions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ agent_name: "detached" }),
    });
    expect(created.status).toBe(201);
    await expect.poll(() => existsSync(pidFile), { timeout: 15_000 }).toBe(true);
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(processAlive(pid)).toBe(true);
    try {
      daemon.child.kill("SIGTERM");
      expect(await daemon.exited).toBe(0);
      await expect.poll(() => processAlive(pid), { timeout: 5000 }).toBe(false);
    } finally {
      if (processAlive(pid)) process.kill(pid, "SIGKILL");
    }
  });
});
