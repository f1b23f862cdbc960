// Runs one hook declaration as a child process: no shell, the payload as JSON on stdin,
// a restricted environment, and a deadline after which its whole tree is killed — the
// process group and whatever still holds its pipes — even when the hook itself already
// exited and left children behind (ADR 0174). Never throws: every way a hook can go wrong
// comes back as a result to log.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { endTree, type ProcessTree, stdioIdentities, treeMembers } from "../acp/process-tree";
import type { HookDeclaration } from "./hook-config";

/** Marks one run's tree in its environment, so a child that left the group is still found. */
const HOOK_RUN_ENV = "TIDELINE_HOOK_RUN";

/** What a hook inherits from the daemon; everything else must be named in its `env`. */
const INHERITED_ENV = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TMPDIR", "TZ"];
const OUTPUT_CAP_BYTES = 8 * 1024;
/** Between SIGTERM and SIGKILL once the deadline passed. */
const KILL_GRACE_MS = 500;

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

/**
 * The payload as one JSON line. JSON allows U+2028, U+2029 and U+0085 raw, but a reader
 * splitting lines the Unicode way (or pasting into JavaScript source) breaks on them:
 * they are escaped, so the one line stays one line for every reader.
 */
export function payloadLine(payload: unknown): string {
  return `${JSON.stringify(payload).replace(/[\u0085\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)}\n`;
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
    const runId = randomUUID();
    const marker = `${HOOK_RUN_ENV}=${runId}`;
    const child = spawn(declaration.command, declaration.args, {
      cwd: declaration.cwd,
      env: {
        ...hookEnv(declaration, options.env ?? process.env),
        [HOOK_RUN_ENV]: runId,
      },
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so the deadline also ends what a hook started (`sh -c …`).
      detached: true,
    });
    const tree: ProcessTree | undefined =
      child.pid === undefined
        ? undefined
        : { pgid: child.pid, stdio: stdioIdentities(child.pid), marker };
    // The deadline is the tree's, not the leader's: it stays armed until nothing is left,
    // and its SIGKILL is never cancelled by the leader exiting first.
    const deadline = setTimeout(() => {
      timedOut = true;
      if (tree !== undefined) void endTree(tree, KILL_GRACE_MS);
    }, declaration.timeoutMs);

    function finish(result: HookRunResult) {
      if (settled) return;
      settled = true;
      // Left children keep the deadline armed (it ends them); a finished tree clears it.
      if (tree === undefined || treeMembers(tree).length === 0) clearTimeout(deadline);
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
    child.stdin.end(payloadLine(payload));
  });
}
