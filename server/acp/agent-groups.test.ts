import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAgentGroupRegistry, reapLeftoverGroups } from "./agent-groups";
import { GROUP_TOKEN_ENV, processAlive } from "./process-group";

const dirs: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already ended.
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "tideline-groups-"));
  dirs.push(dir);
  return dir;
}

/** A group leader that ignores SIGTERM, as an agent tree left by a dead daemon would be. */
function stubbornGroup(env: NodeJS.ProcessEnv): number {
  const child = spawn(
    process.execPath,
    ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"],
    { detached: true, stdio: "ignore", env },
  );
  children.push(child);
  if (child.pid === undefined) throw new Error("could not spawn");
  return child.pid;
}

/** The pid of a process that has exited: a daemon that died. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid ?? 999_999;
}

function writeRecord(dir: string, name: string, record: unknown) {
  writeFileSync(join(dir, name), typeof record === "string" ? record : JSON.stringify(record));
}

async function until(ok: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/** The boot the registry stamps on its records (null without /proc). */
function bootId(): string | null {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return null;
  }
}

describe("the agent group registry", () => {
  it("when a group is added and removed, then its record file appears and disappears", () => {
    const dir = tempDir();
    const registry = createAgentGroupRegistry(dir);
    registry.add({ pgid: 1234, token: "abc", sessionId: "s-1" });
    expect(readdirSync(dir)).toEqual(["1234.json"]);
    registry.remove(1234);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("reaping groups a dead daemon left", () => {
  it("when a recorded group still runs with its token and its daemon is gone, then it is ended (SIGKILL after the grace) and the record removed", async () => {
    const dir = tempDir();
    const token = randomUUID();
    const pgid = stubbornGroup({ ...process.env, [GROUP_TOKEN_ENV]: token });
    await until(() => processAlive(pgid));
    writeRecord(dir, `${pgid}.json`, {
      pgid,
      token,
      session_id: "s",
      daemon_pid: await deadPid(),
      boot_id: bootId(),
      started_at: new Date().toISOString(),
    });
    const result = reapLeftoverGroups(dir, { graceMs: 200 });
    expect(result.reaped).toEqual([pgid]);
    await result.done;
    expect(processAlive(pgid)).toBe(false);
    expect(existsSync(join(dir, `${pgid}.json`))).toBe(false);
  });

  it("when the group's processes do not carry the token (the pgid now belongs to a stranger), then nothing is signalled and the record is dropped", async () => {
    const dir = tempDir();
    const pgid = stubbornGroup({ ...process.env, [GROUP_TOKEN_ENV]: "another-token" });
    writeRecord(dir, `${pgid}.json`, {
      pgid,
      token: randomUUID(),
      session_id: "s",
      daemon_pid: await deadPid(),
      boot_id: bootId(),
      started_at: new Date().toISOString(),
    });
    const result = reapLeftoverGroups(dir, { graceMs: 100 });
    expect(result.reaped).toEqual([]);
    await result.done;
    expect(processAlive(pgid)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("when the daemon that recorded the group is still alive, then its agents are left alone", async () => {
    const dir = tempDir();
    const token = randomUUID();
    const pgid = stubbornGroup({ ...process.env, [GROUP_TOKEN_ENV]: token });
    const liveDaemon = stubbornGroup(process.env);
    writeRecord(dir, `${pgid}.json`, {
      pgid,
      token,
      session_id: "s",
      daemon_pid: liveDaemon,
      boot_id: bootId(),
      started_at: new Date().toISOString(),
    });
    const result = reapLeftoverGroups(dir, { graceMs: 100 });
    expect(result.reaped).toEqual([]);
    expect(processAlive(pgid)).toBe(true);
    expect(readdirSync(dir)).toEqual([`${pgid}.json`]);
  });

  it("when records are malformed or name pgid 0, 1 or a negative one, then they are dropped and nothing is signalled", async () => {
    const dir = tempDir();
    const daemon = await deadPid();
    const base = { token: "t", session_id: "s", daemon_pid: daemon, boot_id: null };
    writeRecord(dir, "garbage.json", "{not json");
    writeRecord(dir, "null.json", "null");
    writeRecord(dir, "one.json", { ...base, pgid: 1 });
    writeRecord(dir, "zero.json", { ...base, pgid: 0 });
    writeRecord(dir, "negative.json", { ...base, pgid: -1 });
    writeRecord(dir, "fraction.json", { ...base, pgid: 12.5 });
    writeRecord(dir, "no-token.json", { ...base, pgid: 4000, token: "" });
    writeRecord(dir, "note.txt", "not a record");
    const result = reapLeftoverGroups(dir);
    expect(result.reaped).toEqual([]);
    expect(readdirSync(dir)).toEqual(["note.txt"]);
    expect(processAlive(process.pid)).toBe(true);
  });

  it("when the data dir has no registry yet, then there is nothing to reap", async () => {
    const result = reapLeftoverGroups(join(tempDir(), "absent"));
    expect(result.reaped).toEqual([]);
    await result.done;
  });
});
