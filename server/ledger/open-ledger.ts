// Opens (or creates) the ledger database and wires the store, recorder and reader on one
// connection. One connection is enough: better-sqlite3 is synchronous, so every append is
// already serialized, and WAL lets readers in other processes (tests, tools) look in.
import Database from "better-sqlite3";
import type { Ledger } from "../domain/session-recorder-api";
import { createAuditReader } from "./audit-reader";
import { createExportReader } from "./export-reader";
import { migrate } from "./migrations";
import { createPendingReplayStore } from "./pending-replays";
import { ensurePrivateFile } from "./private-files";
import { createSessionInputStore } from "./session-inputs";
import { createSessionReader } from "./session-reader";
import { createSessionRecorder } from "./session-recorder";
import { createSessionSettingsStore } from "./session-settings";
import { createSessionStore } from "./session-store";
import { createTranscriptSearch } from "./transcript-search";

export type LedgerOptions = {
  now?: () => Date;
  /** agent_name → configured context window, for the `estimated_size` meter state. */
  contextWindows?: Record<string, number>;
};

export function openLedger(path: string, options: LedgerOptions = {}): Ledger {
  // SQLite gives the -wal and -shm files the main file's mode, so a 0600 database keeps
  // every transcript private whatever the umask; older, looser files are tightened.
  // An in-memory database (tests) has no file: making one would leave `:memory:` behind.
  if (path !== ":memory:") {
    ensurePrivateFile(path);
    for (const suffix of ["-wal", "-shm"]) ensurePrivateFile(path + suffix, { create: false });
  }
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  // NORMAL in WAL mode: a commit survives a killed daemon (SIGKILL) because the WAL is
  // in the OS cache; only a power loss may drop the newest commits, never corrupt the
  // file. FULL would fsync every append and cost the ingest budget (see the ADR).
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  // Checkpoints are where WAL mode pays its fsyncs; at the default 1,000 pages they came
  // every ~150 frames and dominated ingest time. 16,384 pages (64 MiB) amortizes them; the
  // size limit truncates the WAL back after a checkpoint so it never stays large.
  db.pragma("wal_autocheckpoint = 16384");
  db.pragma("journal_size_limit = 67108864");
  // 8 MiB of page cache: it is resident memory, and at 32 MiB a daemon that had read ten
  // large sessions stayed over the 200 MB budget; ingest and page reads measured the same
  // (ADR 0117).
  db.pragma("cache_size = -8192");
  migrate(db);
  const now = options.now ?? (() => new Date());
  return {
    store: createSessionStore(db, now),
    inputs: createSessionInputStore(db, now),
    search: createTranscriptSearch(db),
    audits: createAuditReader(db),
    exports: createExportReader(db),
    replays: createPendingReplayStore(db, now),
    settings: createSessionSettingsStore(db, now),
    recorder: createSessionRecorder(db, now),
    reader: createSessionReader(db, options.contextWindows ?? {}),
    sizeBytes: () =>
      (db.pragma("page_count", { simple: true }) as number) *
      (db.pragma("page_size", { simple: true }) as number),
    close: () => db.close(),
  };
}
