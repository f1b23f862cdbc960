// Starts the real daemon (server/main.ts) as a child process on a free port with a fresh
// data directory, the way a user runs it, and stops it again. Used by the e2e fixtures.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DAEMON_NODE_FLAGS } from "../server/config/node-flags";

export type Daemon = {
  url: string;
  /** The daemon process (for the benches' CPU readings). */
  pid: number | undefined;
  dataDir: string;
  /** Everything the daemon wrote to stderr so far (its log). */
  log: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
  /** Stop (SIGKILL by default) and start again on the same port and data directory. */
  restart: (signal?: NodeJS.Signals) => Promise<void>;
};

const ROOT = resolve(import.meta.dirname, "..");
const LISTENING = /listening on (http:\/\/[^\s]+)/;

/** The demo agent with no delays, under a name: the e2e tests drive pacing with `/demo slow`. */
export function demoAgentFlag(extra = "", name = "demo"): string {
  return `${name}=${process.execPath} --import tsx ${join(ROOT, "server/demo-agent/main.ts")} --speed 0 ${extra}`.trim();
}

function launch(
  args: string[],
  port: number,
): Promise<{ child: ChildProcess; url: string; log: string[] }> {
  const child = spawn(
    process.execPath,
    [...DAEMON_NODE_FLAGS, "--import", "tsx", "server/main.ts", "--port", String(port), ...args],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "test" },
    },
  );
  const log: string[] = [];
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`daemon did not start within 20 s:\n${log.join("")}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      log.push(chunk.toString());
      const match = LISTENING.exec(log.join(""));
      if (match?.[1]) {
        clearTimeout(timer);
        resolveStart({ child, url: match[1], log });
      }
    };
    child.stderr?.on("data", onData);
    child.stdout?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`daemon exited with ${code} before listening:\n${log.join("")}`));
    });
  });
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill(signal);
  });
}

export async function startDaemon(
  args: string[] = [],
  options: { dataDir?: string } = {},
): Promise<Daemon> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "tideline-e2e-"));
  const fullArgs = ["--data-dir", dataDir, "--workspace", join(dataDir, "workspace"), ...args];
  let current = await launch(fullArgs, 0);
  const port = Number(new URL(current.url).port);
  const daemon: Daemon = {
    get url() {
      return current.url;
    },
    get pid() {
      return current.child.pid;
    },
    dataDir,
    log: () => current.log.join(""),
    stop: async (signal = "SIGTERM") => {
      await stopChild(current.child, signal);
    },
    restart: async (signal = "SIGKILL") => {
      await stopChild(current.child, signal);
      current = await launch(fullArgs, port);
    },
  };
  return daemon;
}

export function removeDataDir(daemon: Daemon): void {
  rmSync(daemon.dataDir, { recursive: true, force: true });
}

/**
 * A second daemon in upstream mode in front of `upstream`: it serves the SPA and forwards
 * /api there, running no agents of its own.
 */
export function startUpstreamDaemon(upstream: Daemon, args: string[] = []): Promise<Daemon> {
  return startDaemon(["--upstream", upstream.url, ...args]);
}
