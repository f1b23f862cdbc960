// Runs one hook declaration as a child process: no shell, the payload as JSON on stdin,
// a restricted environment, and a deadline after which the whole process group is killed.
// Never throws: every way a hook can go wrong comes back as a result to log.
import { spawn } from "node:child_process";
import type { HookDeclaration } from "./hook-config";

/** What a hook inherits from the daemon; everything else must be named in its `env`. */
const INHERITED_ENV = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TMPDIR", "TZ"];
const OUTPUT_CAP_BYTES = 8 * 1024;
/** Between SIGTERM and SIGKILL once the deadline passed. */
export const KILL_GRACE_MS = 500;

export type HookRunResult =
  | { ok: true; durationMs: number }
  | {
      ok: false;
      durationMs: number;
      /** One line for the warning: exit status, signal, deadline or spawn error. */
      reason: string;
      stderr: string;
    };

function capped(chunks: Buffer[]): string {
  const text = Buffer.concat(chunks).toString("utf8");
  return text.length > OUTPUT_CAP_BYTES ? `${text.slice(0, OUTPUT_CAP_BYTES)}...[truncated]` : text;
}

function hookEnv(declaration: HookDeclaration, parent: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of INHERITED_ENV) if (parent[key] !== undefined) env[key] = parent[key];
  return { ...env, ...declaration.env };
}

export function runHook(
  declaration: HookDeclaration,
  payload: unknown,
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<HookRunResult> {
  const started = Date.now();
  return new Promise((resolvePromise) => {
    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    let timedOut = false;
    let settled = false;
    const child = spawn(declaration.command, declaration.args, {
      cwd: declaration.cwd,
      env: hookEnv(declaration, options.env ?? process.env),
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so the deadline also ends what a hook started (`sh -c …`).
      detached: true,
    });
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    let killTimer: NodeJS.Timeout | undefined;
    const deadline = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      killTimer = setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
    }, declaration.timeoutMs);

    function finish(result: HookRunResult) {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (killTimer !== undefined) clearTimeout(killTimer);
      resolvePromise(result);
    }

    // Output is drained (a full pipe would block the hook) but only stderr is kept.
    child.stdout.resume();
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderrBytes > OUTPUT_CAP_BYTES) return;
      stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      finish({
        ok: false,
        durationMs: Date.now() - started,
        reason: `could not start ${declaration.command}: ${error.code ?? error.message}`,
        stderr: "",
      });
    });
    child.on("close", (code, signal) => {
      const durationMs = Date.now() - started;
      // A hook that exits 0 but left children behind must not linger past its deadline.
      if (timedOut) {
        finish({
          ok: false,
          durationMs,
          reason: `timed out after ${declaration.timeoutMs} ms and was killed`,
          stderr: capped(stderr),
        });
      } else if (code === 0) {
        finish({ ok: true, durationMs });
      } else {
        finish({
          ok: false,
          durationMs,
          reason: signal === null ? `exited with code ${code}` : `killed by ${signal}`,
          stderr: capped(stderr),
        });
      }
    });
    // A hook that does not read its stdin closes the pipe early: EPIPE is its business.
    child.stdin.on("error", () => {});
    child.stdin.end(`${JSON.stringify(payload)}\n`);
  });
}
