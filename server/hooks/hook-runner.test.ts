// The hook runner with real processes: nothing a hook starts outlives its deadline — a
// backgrounded child of a hook that already exited 0, a TERM-ignoring child, a child that
// left the group (setsid) but kept the hook's stdout — and the payload stays one line.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { processAlive } from "../acp/process-group";
import type { HookDeclaration } from "./hook-config";
import { payloadLine, runHook } from "./hook-runner";

const dir = mkdtempSync(join(tmpdir(), "tideline-hook-runner-"));
const started: number[] = [];
afterAll(() => {
  for (const pid of started) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
function shellHook(script: string, timeoutMs = 1000): { hook: HookDeclaration; pidFile: string } {
  files += 1;
  const pidFile = join(dir, `child-${files}.pid`);
  return {
    pidFile,
    hook: {
      name: `hook-${files}`,
      event: "context.post_compact",
      command: "sh",
      args: ["-c", script.replaceAll("PIDFILE", pidFile)],
      env: {},
      timeoutMs,
      cwd: dir,
    },
  };
}

async function childPid(pidFile: string): Promise<number> {
  await expect
    .poll(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "")
    .toBe(true);
  const pid = Number(readFileSync(pidFile, "utf8"));
  started.push(pid);
  return pid;
}

const IGNORES_TERM = `${process.execPath} -e "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"`;

describe("a hook's deadline", () => {
  it("when a hook exits 0 at once but leaves a background sleep, then the hook succeeds and the sleep is killed at the deadline", async () => {
    const { hook, pidFile } = shellHook(
      "sleep 301 >/dev/null 2>&1 </dev/null & echo $! > PIDFILE; exit 0",
    );
    const result = await runHook(hook, {});
    expect(result.ok).toBe(true);
    const pid = await childPid(pidFile);
    expect(processAlive(pid)).toBe(true);
    await expect.poll(() => processAlive(pid), { timeout: 4000 }).toBe(false);
  });

  it("when the deadline passes and a child ignores SIGTERM while the hook itself dies of it, then the child still gets SIGKILL", async () => {
    const { hook, pidFile } = shellHook(
      `${IGNORES_TERM} >/dev/null 2>&1 </dev/null & echo $! > PIDFILE; wait`,
    );
    const result = await runHook(hook, {});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/timed out after 1000 ms/);
    const pid = await childPid(pidFile);
    await expect.poll(() => processAlive(pid), { timeout: 4000 }).toBe(false);
  });

  it("when a child leaves the hook's group (setsid) but holds its stdout, then the deadline finds it by the pipe and kills it", async () => {
    const { hook, pidFile } = shellHook(`setsid ${IGNORES_TERM} & echo $! > PIDFILE; exit 0`);
    const running = runHook(hook, {});
    // Known before the result, so afterAll ends it even when the deadline fails to.
    const pid = await childPid(pidFile);
    const result = await running;
    // The held pipe keeps the hook "running" until its deadline ends the holder.
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/timed out/);
    await expect.poll(() => processAlive(pid), { timeout: 4000 }).toBe(false);
  });
});

describe("a hook's payload", () => {
  it("when a summary holds U+2028, U+2029 or U+0085, then the hook reads them escaped, on one line, and the JSON means the same", async () => {
    const out = join(dir, "payload.json");
    const { hook } = shellHook(`cat > ${out}`);
    const payload = { summary: "one\u2028two\u2029three\u0085four" };
    expect((await runHook(hook, payload)).ok).toBe(true);
    const text = readFileSync(out, "utf8");
    expect(text).not.toMatch(/[\u0085\u2028\u2029]/);
    expect(text).toContain("one\\u2028two\\u2029three\\u0085four");
    expect(text.split("\n")).toEqual([expect.any(String), ""]);
    expect(JSON.parse(text)).toEqual(payload);
    expect(payloadLine(payload)).toBe(text);
  });
});
