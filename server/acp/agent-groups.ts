// The agent process groups a daemon has running, one small file each in the data dir, so
// a daemon that died without its shutdown (SIGKILL, OOM, power cut of the terminal) does
// not leave agent trees behind: the next start on the same data dir ends them (ADR 0075).
// A record is trusted only as far as it can be checked: same boot, its daemon gone, and a
// live member of the group still carrying the group's token in its environment.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { asJsonObject } from "../../src/contract/json-value";
import { endGroup, GROUP_TOKEN_ENV, groupMembers, processAlive } from "./process-group";

type AgentGroupRecord = { pgid: number; token: string; sessionId: string };

type StoredRecord = {
  pgid: number;
  token: string;
  session_id: string;
  daemon_pid: number;
  boot_id: string | null;
  started_at: string;
};

export type AgentGroupRegistry = {
  add(record: AgentGroupRecord): void;
  remove(pgid: number): void;
};

function bootId(): string | null {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return null;
  }
}

const fileOf = (dir: string, pgid: number) => join(dir, `${pgid}.json`);

export function createAgentGroupRegistry(dir: string): AgentGroupRegistry {
  mkdirSync(dir, { recursive: true });
  const boot = bootId();
  return {
    add({ pgid, token, sessionId }) {
      const record: StoredRecord = {
        pgid,
        token,
        session_id: sessionId,
        daemon_pid: process.pid,
        boot_id: boot,
        started_at: new Date().toISOString(),
      };
      writeFileSync(fileOf(dir, pgid), `${JSON.stringify(record)}\n`);
    },
    remove(pgid) {
      rmSync(fileOf(dir, pgid), { force: true });
    },
  };
}

function parseRecord(text: string): StoredRecord | undefined {
  try {
    const record: Partial<StoredRecord> | undefined = asJsonObject(JSON.parse(text));
    if (record === undefined) return undefined;
    if (
      !Number.isInteger(record.pgid) ||
      (record.pgid ?? 0) <= 1 ||
      typeof record.token !== "string" ||
      record.token === "" ||
      !Number.isInteger(record.daemon_pid)
    ) {
      return undefined;
    }
    return record as StoredRecord;
  } catch {
    return undefined;
  }
}

function carriesToken(pid: number, token: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8")
      .split("\0")
      .includes(`${GROUP_TOKEN_ENV}=${token}`);
  } catch {
    return false;
  }
}

export type ReapResult = {
  /** Groups that were still running and are being ended (TERM now, KILL after grace). */
  reaped: number[];
  /** Resolves when every reaped group is gone (or survived SIGKILL). */
  done: Promise<void>;
};

/**
 * Ends the agent groups a previous daemon on this data dir left running. Records of a
 * daemon that is still alive are left alone (two daemons may share a data dir by mistake;
 * one must not kill the other's agents).
 */
export function reapLeftoverGroups(
  dir: string,
  options: { graceMs?: number; log?: (line: string) => void } = {},
): ReapResult {
  const log = options.log ?? (() => {});
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  } catch {
    return { reaped: [], done: Promise.resolve() };
  }
  const boot = bootId();
  const reaped: number[] = [];
  const endings: Promise<void>[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      continue;
    }
    const record = parseRecord(text);
    if (record === undefined) {
      rmSync(path, { force: true });
      continue;
    }
    if (record.daemon_pid !== process.pid && processAlive(record.daemon_pid)) continue;
    const members = record.boot_id === boot ? groupMembers(record.pgid) : [];
    if (members === undefined) {
      // No /proc: the record cannot be verified, and a guess could kill a stranger.
      log(`[host] cannot verify leftover agent group ${record.pgid}; left alone`);
      rmSync(path, { force: true });
      continue;
    }
    if (!members.some((pid) => carriesToken(pid, record.token))) {
      rmSync(path, { force: true });
      continue;
    }
    reaped.push(record.pgid);
    log(`[host] ending agent group ${record.pgid} left by a daemon that died`);
    endings.push(
      endGroup(record.pgid, options.graceMs ?? 1000).then((gone) => {
        if (gone) rmSync(path, { force: true });
      }),
    );
  }
  return { reaped, done: Promise.all(endings).then(() => undefined) };
}
