// Test support: the CLI in-process (real HTTP to a real daemon on a port, output
// captured), and as the real `bin/tideline.mjs` child process.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runCli } from "../../cli/main";

export type CliRun = { code: number; stdout: string; stderr: string };

export async function cliIn(
  api: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; tty?: boolean } = {},
): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(args, {
    stdout: { write: (text: string) => stdout.push(text), isTTY: options.tty ?? false },
    stderr: { write: (text: string) => stderr.push(text), isTTY: options.tty ?? false },
    env: { TIDELINE_API: api, ...options.env },
  });
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}

export const BIN = fileURLToPath(new URL("../../bin/tideline.mjs", import.meta.url));

/** The installed command as a user runs it: `node bin/tideline.mjs …`. */
export function cliBin(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export async function waitUntil(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
