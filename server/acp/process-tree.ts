// A child's whole tree, as far as it can be found: its process group, every process still
// holding one of the child's stdio pipes, and every process carrying the child's marker in
// its environment. A process that left the group (`setsid`, `detached: true`) is found
// through /proc: by the identity of a pipe it kept ("pipe:[inode]" or "socket:[inode]",
// read right after spawn: a leader that exits at once may be gone before, hence the
// marker too), or by the marker it inherited (ADR 0174).
// Ending a tree: SIGTERM to all of it, SIGKILL after the grace to whatever is left; the
// deadline holds until nothing of it is left, whatever became of the leader.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { groupMembers, processAlive, signalGroup } from "./process-group";

export type ProcessTree = {
  pgid: number;
  /** The child's fd 0–2 identities at spawn; empty without /proc. */
  stdio: readonly string[];
  /** `NAME=value` set only in this child's environment, inherited by its descendants. */
  marker?: string;
};

/** What fd 0, 1 and 2 of `pid` are (`pipe:[123]`, `socket:[456]`), read from /proc. */
export function stdioIdentities(pid: number): string[] {
  const identities: string[] = [];
  for (const fd of [0, 1, 2]) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (/^(pipe|socket):\[\d+\]$/.test(target)) identities.push(target);
    } catch {
      // No /proc, or the process is already gone.
    }
  }
  return identities;
}

function holdsPipe(pid: string, wanted: ReadonlySet<string>): boolean {
  if (wanted.size === 0) return false;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      if (wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return true;
    } catch {
      // The fd closed meanwhile.
    }
  }
  return false;
}

function carriesMarker(pid: string, marker: string | undefined): boolean {
  if (marker === undefined) return false;
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(marker);
  } catch {
    return false;
  }
}

/** Live processes (never this daemon) that hold one of the pipes or carry the marker. */
function strayMembers(tree: Pick<ProcessTree, "stdio" | "marker">): number[] {
  const wanted = new Set(tree.stdio);
  if (wanted.size === 0 && tree.marker === undefined) return [];
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return pids
    .filter((pid) => Number(pid) !== process.pid)
    .filter((pid) => holdsPipe(pid, wanted) || carriesMarker(pid, tree.marker))
    .map(Number)
    .filter(processAlive);
}

/** Every live process of the tree now: the group's members and the pipes' holders. */
export function treeMembers(tree: ProcessTree): number[] {
  const members = new Set(groupMembers(tree.pgid) ?? []);
  for (const pid of strayMembers(tree)) members.add(pid);
  return [...members];
}

function signalTree(tree: ProcessTree, pids: readonly number[], signal: NodeJS.Signals) {
  signalGroup(tree.pgid, signal);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
}

const POLL_MS = 25;

async function waitGone(pids: readonly number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!pids.some(processAlive)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * SIGTERM to the tree, SIGKILL after `graceMs` to whatever of it is left (looked up again:
 * a process may have forked meanwhile). True once nothing is left, false if something
 * survived SIGKILL (stuck in the kernel).
 */
export async function endTree(tree: ProcessTree, graceMs: number): Promise<boolean> {
  const members = treeMembers(tree);
  if (members.length === 0) return true;
  signalTree(tree, members, "SIGTERM");
  if (await waitGone(members, graceMs)) {
    if (treeMembers(tree).length === 0) return true;
  }
  const left = treeMembers(tree);
  signalTree(tree, left, "SIGKILL");
  return waitGone(left, 2000);
}

/** SIGKILL to the whole tree, synchronously (the daemon is exiting). */
export function killTreeNow(tree: ProcessTree): void {
  signalTree(tree, strayMembers(tree), "SIGKILL");
}
