// Per-session settings that are neither history nor the session row itself: where a
// continued or forked session came from (ADR 0087), its tool policy (ADR 0088) and the
// messages its person pinned (ADR 0165).
import type Database from "better-sqlite3";
import type {
  DerivationKind,
  HistoryScope,
  SessionSettingsStore,
} from "../domain/session-recorder-api";
import { createSessionPinsStore } from "./session-pins";

export function createSessionSettingsStore(
  db: Database.Database,
  now: () => Date,
): SessionSettingsStore {
  const insertDerivation = db.prepare(
    `INSERT INTO session_derivations (session_id, source_session_id, kind, created_at)
     VALUES (?, ?, ?, ?)`,
  );
  const derivation = db.prepare<
    [string],
    { source_session_id: string; kind: DerivationKind; created_at: string }
  >("SELECT source_session_id, kind, created_at FROM session_derivations WHERE session_id = ?");
  const children = db.prepare<
    [string],
    { session_id: string; kind: DerivationKind; created_at: string }
  >(
    `SELECT session_id, kind, created_at FROM session_derivations
     WHERE source_session_id = ? ORDER BY created_at, rowid`,
  );
  const upsertTools = db.prepare(
    `INSERT INTO session_tool_policies (session_id, session_tools) VALUES (?, ?)
     ON CONFLICT (session_id) DO UPDATE SET session_tools = excluded.session_tools`,
  );
  const tools = db
    .prepare<[string], number>(
      "SELECT session_tools FROM session_tool_policies WHERE session_id = ?",
    )
    .pluck(true);
  const upsertScope = db.prepare(
    `INSERT INTO session_history_scopes (session_id, scope) VALUES (?, ?)
     ON CONFLICT (session_id) DO UPDATE SET scope = excluded.scope`,
  );
  const scope = db
    .prepare<[string], HistoryScope>(
      "SELECT scope FROM session_history_scopes WHERE session_id = ?",
    )
    .pluck(true);
  return {
    ...createSessionPinsStore(db, now),
    setHistoryScope(sessionId, value) {
      upsertScope.run(sessionId, value);
    },
    historyScopeOf(sessionId) {
      return scope.get(sessionId) ?? "lineage";
    },
    recordDerivation(sessionId, sourceSessionId, kind) {
      insertDerivation.run(sessionId, sourceSessionId, kind, now().toISOString());
    },
    derivationOf(sessionId) {
      const row = derivation.get(sessionId);
      return row === undefined
        ? undefined
        : { sourceSessionId: row.source_session_id, kind: row.kind, createdAt: row.created_at };
    },
    derivationsFrom(sourceSessionId) {
      return children.all(sourceSessionId).map((row) => ({
        sessionId: row.session_id,
        sourceSessionId,
        kind: row.kind,
        createdAt: row.created_at,
      }));
    },
    setSessionTools(sessionId, offered) {
      upsertTools.run(sessionId, offered ? 1 : 0);
    },
    sessionToolsOf(sessionId) {
      const value = tools.get(sessionId);
      return value === undefined ? undefined : value === 1;
    },
  };
}
