// server/main.ts in upstream mode as a real process: a bad URL is one line and exit 2; a
// good one serves /api from the upstream and writes nothing to the data directory.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeCompozy } from "../testing/fake-compozy";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tideline-upstream-main-"));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe("the daemon process in upstream mode", () => {
  it("when --upstream is not an http(s) URL, then it exits 2 with one line on stderr", () => {
    const result = spawnSync(
      process.execPath,
      ["--import", "tsx", MAIN, "--upstream", "ftp://127.0.0.1:2123"],
      { encoding: "utf8", timeout: 20_000 },
    );
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split("\n")).toEqual([
      'tideline: --upstream must be an http(s) URL such as http://127.0.0.1:2123, got scheme "ftp:"',
    ]);
  });

  it("when started with --upstream, then it says where /api goes, forwards there with the token, creates no data and stops on SIGTERM", async () => {
    const fake = await startFakeCompozy({ tier: "private", credential: "cred" });
    const dataDir = join(dir, "data");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", MAIN, "--port", "0", "--data-dir", dataDir, "--upstream", fake.url],
      {
        env: { ...process.env, TIDELINE_UPSTREAM_TOKEN: "cred" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    children.push(child);
    let log = "";
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line:\n${log}`)), 20_000);
      child.stderr?.on("data", (chunk: Buffer) => {
        log += chunk.toString();
        const match =
          /listening on (http:\/\/127\.0\.0\.1:\d+) \(upstream mode: forwarding \/api to ([^\s)]+)/.exec(
            log,
          );
        if (match?.[1] && match[2] === fake.url) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    expect(log).toContain(`forwarding /api to ${fake.url} with a bearer token`);
    const response = await fetch(`${base}/api/sessions`);
    expect(response.status).toBe(200);
    expect(fake.requests.at(-1)?.headers.authorization).toBe("Bearer cred");
    // The startup line about the upstream, from its own GET /api/status.
    await expect.poll(() => log, { timeout: 5000 }).toContain("CompozyOS listener tier private");
    expect(existsSync(dataDir)).toBe(false);

    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await fake.stop();
  });
});
