// Signals and liveness for an agent's process group. Every agent is spawned as the leader
// of its own group (`detached: true`), so its whole tree — CLIs, shells, MCP servers it
// started — can be ended with one signal to `-pgid`, whatever became of the leader.
import { readdirSync, readFileSync } from "node:fs";

/** Environment variable carrying a group's token, inherited by the agent's whole tree. */
export const GROUP_TOKEN_ENV = "TIDELINE_AGENT_GROUP";

/** Sends `signal` to every process of the group; false when there is no such group. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** `/proc/<pid>/stat`: state and process group, or undefined when unreadable. */
function statOf(pid: string): { state: string; pgrp: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may itself contain spaces or parentheses.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const pgrp = Number(fields[2]);
  return state === undefined || !Number.isFinite(pgrp) ? undefined : { state, pgrp };
}

const hasProc = (() => {
  try {
    readFileSync("/proc/self/stat");
    return true;
  } catch {
    return false;
  }
})();

const dead = (state: string) => state === "Z" || state === "X";

/**
 * The live (non-zombie) members of a group. Where the init process does not reap orphans
 * (containers), a killed grandchild lingers as a zombie that `kill(-pgid, 0)` still finds.
 * Without /proc, every member the kernel still knows counts.
 */
export function groupMembers(pgid: number): number[] | undefined {
  if (!hasProc) return undefined;
  const members: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statOf(name);
    if (stat !== undefined && stat.pgrp === pgid && !dead(stat.state)) members.push(Number(name));
  }
  return members;
}

function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  const members = groupMembers(pgid);
  return members === undefined || members.length > 0;
}

/** Whether a process exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = hasProc ? statOf(String(pid)) : undefined;
  return stat === undefined ? !hasProc : !dead(stat.state);
}

const POLL_MS = 25;

/** Resolves true once the group has no live member, false after `timeoutMs`. */
async function waitForGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!groupAlive(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * SIGTERM to the group, SIGKILL after `graceMs` if any member is left. Resolves true when
 * the group is gone, false if something survived even SIGKILL (a process stuck in the
 * kernel); the caller keeps its record so the next daemon start can try again.
 */
export async function endGroup(pgid: number, graceMs: number): Promise<boolean> {
  if (!groupAlive(pgid)) return true;
  signalGroup(pgid, "SIGTERM");
  if (await waitForGroupGone(pgid, graceMs)) return true;
  signalGroup(pgid, "SIGKILL");
  return waitForGroupGone(pgid, 2000);
}
