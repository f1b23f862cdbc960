// The README's "Hooks" and "From the terminal" example as a user runs it: the daemon as a
// real process (`server/main.ts --config hooks.toml`, the file from docs/examples), the
// `tideline` command as a real process, and the file the hook writes.
import { type ChildProcess, spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cliBin } from "../testing/cli-runner";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../docs/examples/hooks.toml", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tideline-readme-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function daemon(args: string[]): Promise<{ child: ChildProcess; api: string; log: () => string }> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      import.meta.resolve("tsx"),
      MAIN,
      "--port",
      "0",
      "--data-dir",
      join(dir, "data"),
      ...args,
    ],
    {
      cwd: dir,
      env: { ...process.env, DEMO_AGENT_SPEED: "0" },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  children.push(child);
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon did not start:\n${log}`)), 20_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`daemon exited ${code}:\n${log}`), { code, log }));
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1];
      if (port !== undefined) {
        clearTimeout(timer);
        resolve({ child, api: `http://127.0.0.1:${port}`, log: () => log });
      }
    });
  });
}

async function until(check: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the README example", () => {
  it("when the daemon runs with the example hooks.toml, then `tideline session compact` reports completed and compactions.jsonl gets the payloads", async () => {
    copyFileSync(EXAMPLE, join(dir, "hooks.toml"));
    const { api, log } = await daemon(["--config", "hooks.toml", "--workspace", join(dir, "ws")]);
    await until(() => log().includes("2 hook(s) from"));
    const env = { TIDELINE_API: api };
    // The welcome session is the first one `tideline sessions` lists; wait until it is idle.
    let id = "";
    await until(() => existsSync(join(dir, "compactions.jsonl")));
    for (;;) {
      const list = JSON.parse((await cliBin(["sessions", "-o", "json"], env)).stdout);
      const session = list.sessions[0];
      if (session?.state === "active" && session.activity?.turn_id === undefined) {
        id = session.id;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const run = await cliBin(["session", "compact", id], env);
    expect(run.stdout).toMatch(
      /^Compaction requested: \/compact \(prompt [\w-]+\)\nCompaction completed\n$/,
    );
    expect(run.code).toBe(0);
    const turnId = /\(prompt ([\w-]+)\)/.exec(run.stdout)?.[1];
    const path = join(dir, "compactions.jsonl");
    // The welcome session's own compaction wrote lines too; this turn's are ours.
    const ours = () =>
      readFileSync(path, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
        .filter((payload) => payload.turn_id === turnId);
    await until(() => ours().length >= 2);
    expect(ours()).toEqual([
      expect.objectContaining({
        event: "context.pre_compact",
        session_id: id,
        trigger: "requested",
      }),
      expect.objectContaining({
        event: "context.post_compact",
        session_id: id,
        trigger: "requested",
        status: "completed",
      }),
    ]);
  });

  it("when the config file is broken, then the daemon refuses to start with the reason, exit 2", async () => {
    writeFileSync(
      join(dir, "broken.toml"),
      '[[hooks.declarations]]\nname = "x"\nevent = "context.compact"\n',
    );
    const failure = await daemon(["--config", "broken.toml"]).catch(
      (error: { code: number; log: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { log: string }).log).toMatch(
      /^tideline: --config .*broken\.toml: .*event/m,
    );
  });

  it("when --config is given with --upstream, then the start is refused (hooks observe this daemon's own ledger)", async () => {
    writeFileSync(join(dir, "empty.toml"), "");
    const failure = await daemon([
      "--config",
      "empty.toml",
      "--upstream",
      "http://127.0.0.1:1",
    ]).catch((error: { code: number; log: string }) => error);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { log: string }).log).toContain(
      "--config (hooks) cannot be combined with --upstream",
    );
  });
});
