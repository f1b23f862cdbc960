// The schema, as an ordered list of migrations applied by `PRAGMA user_version`. A
// migration is never edited once released: add a new one. Each runs in its own
// transaction together with the version bump, so a crash mid-upgrade leaves the old schema.
import { randomBytes } from "node:crypto";
import type Database from "better-sqlite3";
import { rebuildSearchIndex } from "./search-index";

type Migration = (db: Database.Database) => void;

/**
 * Row types that arrive in bulk while an agent streams. They are left out of the type
 * index (one page write less for most frames); queries for them scan the primary-key
 * range, where they are dense. Part of migration 1: never edit, add a migration instead.
 */
export const STREAM_ROW_TYPES = [
  "agent.message_chunk",
  "agent.thought_chunk",
  "compaction.chunk",
  "tool_call_update",
] as const;
const STREAM_TYPE_LIST = STREAM_ROW_TYPES.map((type) => `'${type}'`).join(", ");

// ADR 0190: the transcript in shapes CompozyOS's own web accepts. State lines and
// compactions move to the assistant role, a prompt's entry takes the client's message id,
// and a tool part past input-streaming always has an input (and, finished, an output).
export function compozyWebShapes(db: Database.Database): void {
  db.exec(`
    UPDATE entries SET message = json_set(message, '$.role', 'assistant')
      WHERE json_extract(message, '$.role') = 'system';
    UPDATE entries SET message = json_set(message, '$.id', json_extract(message, '$.metadata.message_id'))
      WHERE kind = 'user' AND json_type(message, '$.metadata.message_id') = 'text'
        AND json_extract(message, '$.metadata.message_id') <> '';
    UPDATE entries SET message = json_set(message, '$.parts[0].input', json('{}'))
      WHERE kind = 'tool' AND json_type(message, '$.parts[0].input') IS NULL
        AND json_extract(message, '$.parts[0].state') <> 'input-streaming';
    UPDATE entries SET message = json_set(message, '$.parts[0].output', json('{}'))
      WHERE kind = 'tool' AND json_type(message, '$.parts[0].output') IS NULL
        AND json_extract(message, '$.parts[0].state') = 'output-available';
  `);
}

export function sessionListPaging(db: Database.Database): void {
  // ADR 0140: the session list is paged in SQL. Its sort key (last activity) and its
  // state filter live on the sessions row, kept by the recorder: on every row that is
  // not a stream chunk, and at most once a second while chunks stream, so ingest does
  // not pay an index write per frame. Backfilled from the ledger.
  db.exec(`
    ALTER TABLE sessions ADD COLUMN activity_at TEXT NOT NULL DEFAULT '';
    ALTER TABLE sessions ADD COLUMN state TEXT NOT NULL DEFAULT 'stopped';
    UPDATE sessions SET
      activity_at = COALESCE((SELECT l.created_at FROM ledger l WHERE l.session_id = sessions.id
        ORDER BY l.sequence DESC LIMIT 1), updated_at),
      state = COALESCE((SELECT json_extract(l.content, '$.state') FROM ledger l
        WHERE l.session_id = sessions.id AND l.type = 'session.state'
        ORDER BY l.sequence DESC LIMIT 1), 'stopped');
    -- The filter columns ride in the order index, so rows a filter or an OFFSET skips
    -- are decided in the index without a table lookup.
    CREATE INDEX sessions_by_activity
      ON sessions(activity_at DESC, id DESC, archived_at, workspace_id, agent_name, state);
    CREATE INDEX sessions_by_workspace_activity
      ON sessions(workspace_id, activity_at DESC, id DESC, archived_at, agent_name, state);

    -- A page's total without counting every session: how many sessions there are per
    -- filterable combination, kept by triggers (a handful of rows, whatever the catalog).
    CREATE TABLE session_counts (
      workspace_id TEXT NOT NULL,
      agent_name TEXT NOT NULL,
      state TEXT NOT NULL,
      archived INTEGER NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (workspace_id, agent_name, state, archived)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO session_counts
      SELECT workspace_id, agent_name, state, archived_at IS NOT NULL, COUNT(*)
      FROM sessions GROUP BY 1, 2, 3, 4;
    CREATE TRIGGER session_counts_insert AFTER INSERT ON sessions BEGIN
      INSERT INTO session_counts
        VALUES (NEW.workspace_id, NEW.agent_name, NEW.state, NEW.archived_at IS NOT NULL, 1)
        ON CONFLICT DO UPDATE SET n = n + 1;
    END;
    CREATE TRIGGER session_counts_delete AFTER DELETE ON sessions BEGIN
      UPDATE session_counts SET n = n - 1
        WHERE workspace_id = OLD.workspace_id AND agent_name = OLD.agent_name
          AND state = OLD.state AND archived = (OLD.archived_at IS NOT NULL);
    END;
    CREATE TRIGGER session_counts_update
      AFTER UPDATE OF workspace_id, agent_name, state, archived_at ON sessions
      WHEN OLD.state IS NOT NEW.state OR OLD.workspace_id IS NOT NEW.workspace_id
        OR OLD.agent_name IS NOT NEW.agent_name
        OR (OLD.archived_at IS NULL) IS NOT (NEW.archived_at IS NULL)
    BEGIN
      UPDATE session_counts SET n = n - 1
        WHERE workspace_id = OLD.workspace_id AND agent_name = OLD.agent_name
          AND state = OLD.state AND archived = (OLD.archived_at IS NOT NULL);
      INSERT INTO session_counts
        VALUES (NEW.workspace_id, NEW.agent_name, NEW.state, NEW.archived_at IS NOT NULL, 1)
        ON CONFLICT DO UPDATE SET n = n + 1;
    END;
  `);
}

export const MIGRATIONS: readonly Migration[] = [
  (db) => {
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

      CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        root_dir TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      -- Session metadata: mutable, not the ledger. last_sequence hands out the next
      -- sequence inside the append transaction, so a sequence is never reused.
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        agent_name TEXT NOT NULL,
        name TEXT,
        acp_session_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_sequence INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      -- No index on updated_at on purpose: it changes with every append, and an index on
      -- it would cost a page write per frame; a few hundred sessions sort in memory.

      -- The append-only ledger (docs/ledger.md §2). The triggers make "never updated or
      -- deleted" a property of the database, not a convention of this code. WITHOUT ROWID:
      -- rows are clustered by (session_id, sequence), one b-tree instead of table + index.
      -- No index on turn_id: a turn's rows lie between its first sequence and the next
      -- turn's (turns.first_sequence), so turn queries are a primary-key range.
      CREATE TABLE ledger (
        session_id TEXT NOT NULL REFERENCES sessions(id),
        sequence INTEGER NOT NULL,
        turn_id TEXT,
        type TEXT NOT NULL,
        content TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (session_id, sequence)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX ledger_by_type ON ledger(session_id, type, sequence)
        WHERE type NOT IN (${STREAM_TYPE_LIST});
      CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
      CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;

      -- Transcript projection: one row per entry, the folded message as JSON.
      -- entries_by_start serves pages, entries_by_latest serves stream deltas.
      CREATE TABLE entries (
        session_id TEXT NOT NULL REFERENCES sessions(id),
        entry_key TEXT NOT NULL,
        kind TEXT NOT NULL,
        turn_id TEXT,
        start_sequence INTEGER NOT NULL,
        sequence INTEGER NOT NULL,
        message TEXT NOT NULL,
        PRIMARY KEY (session_id, entry_key)
      ) STRICT;
      CREATE UNIQUE INDEX entries_by_start ON entries(session_id, start_sequence);
      CREATE INDEX entries_by_latest ON entries(session_id, sequence);

      -- Compaction intake state per id (docs/ledger.md §3), including the accumulated
      -- summary blocks that are not exposed yet, so a restart re-folds nothing.
      CREATE TABLE compactions (
        session_id TEXT NOT NULL REFERENCES sessions(id),
        compaction_id TEXT NOT NULL,
        state TEXT NOT NULL,
        status TEXT NOT NULL,
        first_sequence INTEGER NOT NULL,
        terminal_sequence INTEGER,
        latest_sequence INTEGER NOT NULL,
        fired_sequence INTEGER,
        fired_turn_id TEXT,
        fired_at TEXT,
        trigger TEXT,
        context_used INTEGER,
        context_size INTEGER,
        PRIMARY KEY (session_id, compaction_id)
      ) STRICT;
      CREATE INDEX compactions_by_terminal ON compactions(session_id, terminal_sequence);
      CREATE INDEX compactions_by_first ON compactions(session_id, first_sequence);

      -- Usage projection: one row per turn (merged usage, last non-null wins) and the
      -- session's running totals.
      CREATE TABLE turns (
        session_id TEXT NOT NULL REFERENCES sessions(id),
        turn_id TEXT NOT NULL,
        first_sequence INTEGER NOT NULL,
        compact_requested INTEGER NOT NULL DEFAULT 0,
        usage TEXT,
        PRIMARY KEY (session_id, turn_id)
      ) STRICT;
      CREATE INDEX turns_by_sequence ON turns(session_id, first_sequence);

      CREATE TABLE usage_totals (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id),
        input_tokens INTEGER,
        output_tokens INTEGER,
        total_tokens INTEGER,
        cache_read_tokens INTEGER,
        cache_write_tokens INTEGER,
        cost_amount REAL,
        cost_currency TEXT
      ) STRICT;
    `);
    // The epoch names this database's history; it changes only if history is rewritten.
    db.prepare("INSERT INTO meta (key, value) VALUES ('epoch', ?)").run(
      `ep_${randomBytes(9).toString("base64url")}`,
    );
  },
  (db) => {
    // The unfolded tail of a long streamed message. Rewriting a big entry row for every
    // chunk rewrites all its overflow pages (O(message) per chunk); a chunk appends here
    // instead (one small row), and the tail is folded into the entry every few KB.
    // Invariant: entry message = entries.message with `text` appended to its last part.
    db.exec(`
      CREATE TABLE entry_tails (
        session_id TEXT NOT NULL,
        entry_key TEXT NOT NULL,
        part_type TEXT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (session_id, entry_key),
        FOREIGN KEY (session_id, entry_key) REFERENCES entries(session_id, entry_key)
      ) STRICT;
    `);
  },
  (db) => {
    // ADR 0040: the newest sequence and activity time come from the ledger itself, so
    // appends stop writing the sessions row. The column goes, so nothing can read a stale
    // value, and a daemon that still hands out sequences from it refuses this schema.
    db.exec("ALTER TABLE sessions DROP COLUMN last_sequence");
  },
  (db) => {
    // CompozyOS's wire contract (ADR 0050).
    db.exec(`
      -- Archive and delete. A session's ledger rows stay append-only while it lives; a
      -- delete marks the session first, and only then may its rows go.
      ALTER TABLE sessions ADD COLUMN archived_at TEXT;
      ALTER TABLE sessions ADD COLUMN deleting INTEGER NOT NULL DEFAULT 0;
      DROP TRIGGER ledger_no_delete;
      CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
        WHEN (SELECT deleting FROM sessions WHERE id = OLD.session_id) IS NOT 1
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;

      -- Prompt idempotency: one row per (session, key), written in the transaction that
      -- records the prompt's input, so a retried send is answered from here, never re-run.
      CREATE TABLE prompt_admissions (
        session_id TEXT NOT NULL REFERENCES sessions(id),
        idempotency_key TEXT NOT NULL,
        message_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        turn_id TEXT NOT NULL,
        result TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (session_id, idempotency_key)
      ) STRICT;

      -- The newest snapshot row of each compaction id: usage markers describe it.
      ALTER TABLE compactions ADD COLUMN snapshot_sequence INTEGER;
      UPDATE compactions SET snapshot_sequence = (
        SELECT MAX(l.sequence) FROM ledger l
        WHERE l.session_id = compactions.session_id AND l.type = 'compaction'
          AND json_extract(l.content, '$.compaction_id') = compactions.compaction_id);
    `);
    // CompozyOS's transcript epoch is an int64: a random one names this database's history
    // (a client holding another database's transcript sees it differ and reloads).
    db.prepare("INSERT INTO meta (key, value) VALUES ('transcript_epoch', ?)").run(
      String(randomBytes(6).readUIntBE(0, 6)),
    );
  },
  (db) => {
    // ADR 0086: a replay owed to the agent session it was built for (acp_session_id),
    // delivered with that session's next ordinary prompt and then deleted. Mutable
    // bookkeeping beside the ledger, like `sessions`: history itself never holds it.
    db.exec(`
      CREATE TABLE pending_replays (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        acp_session_id TEXT NOT NULL,
        reason TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;

      -- ADR 0087: where a continued or forked session came from. The source is no foreign
      -- key: deleting it leaves the lineage note of the sessions derived from it.
      CREATE TABLE session_derivations (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        source_session_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('continue', 'fork')),
        created_at TEXT NOT NULL
      ) STRICT;

      -- ADR 0088: a session's tool policy; no row means the daemon's default.
      CREATE TABLE session_tool_policies (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        session_tools INTEGER NOT NULL CHECK (session_tools IN (0, 1))
      ) STRICT;
    `);
  },
  (db) => {
    // ADR 0042: a long message's unfolded tail is a list of segments, so appending a chunk
    // inserts or extends one small row whatever the message's size, and the tail is folded
    // in only when the part kind changes (the entry row stays small while a message streams).
    db.exec(`
      CREATE TABLE entry_tail_segments (
        session_id TEXT NOT NULL,
        entry_key TEXT NOT NULL,
        seq INTEGER NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (session_id, entry_key, seq)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO entry_tail_segments (session_id, entry_key, seq, text)
        SELECT session_id, entry_key, 0, text FROM entry_tails WHERE text <> '';
      UPDATE entry_tails SET text = '';
    `);
  },
  compozyWebShapes,
  (db) => {
    // ADR 0173: how far a session's agent may read other sessions through the history
    // tool; no row means its own session and its continue/fork lineage only.
    db.exec(`
      CREATE TABLE session_history_scopes (
        session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        scope TEXT NOT NULL CHECK (scope IN ('lineage', 'workspace'))
      ) STRICT;
    `);
  },
  sessionListPaging,
  (db) => {
    // ADR 0165: the messages a person pinned ("Keep this"), by entry id (the message id),
    // with when. Settings beside history, like the tool policy: mutable, never the ledger.
    db.exec(`
      CREATE TABLE session_pins (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        entry_id TEXT NOT NULL,
        pinned_at TEXT NOT NULL,
        PRIMARY KEY (session_id, entry_id)
      ) STRICT, WITHOUT ROWID;
    `);
  },
  (db) => {
    // ADR 0220: the prompt queue. Sends made while a turn runs wait here, beside the
    // ledger, so a stopped or crashed agent and a restarted daemon keep them; a row keeps
    // its status once sent or withdrawn (acting on it again is a conflict, not a 404).
    db.exec(`
      CREATE TABLE session_inputs (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        priority INTEGER NOT NULL,
        text TEXT NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('queue', 'steer', 'interrupt')),
        delivery TEXT NOT NULL CHECK (delivery IN ('after_turn', 'interrupt_then_prompt')),
        status TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'canceled')),
        message_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        target_turn_id TEXT,
        enqueued_at TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        result TEXT NOT NULL
      ) STRICT;
      CREATE INDEX session_inputs_order ON session_inputs (session_id, status, priority, seq);
      CREATE INDEX session_inputs_key ON session_inputs (session_id, idempotency_key);
    `);
  },
  // ADR 0230: the first FTS5 index of transcript search. Its rowids were insertion order;
  // the next step replaces it, so this one no longer builds what would be dropped at once.
  () => {},
  // ADR 0232: the index again, its rowids in transcript order, built from the entries there.
  rebuildSearchIndex,
];

/** Applies the migrations up to `target` (all of them by default; tests build old schemas). */
export function migrate(db: Database.Database, target = MIGRATIONS.length): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `ledger schema version ${current} is newer than this daemon knows (${MIGRATIONS.length})`,
    );
  }
  for (let version = current; version < target; version += 1) {
    const step = MIGRATIONS[version];
    if (step === undefined) break;
    db.transaction(() => {
      step(db);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}
