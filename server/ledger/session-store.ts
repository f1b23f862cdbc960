// Workspaces and session metadata. These tables are mutable bookkeeping beside the
// ledger (names, the agent's ACP session id, the last activity time), never history.
import { randomBytes } from "node:crypto";
import type Database from "better-sqlite3";
import type { Workspace } from "../../src/contract/session";
import type { SessionRecord, SessionStore } from "../domain/session-recorder-api";
import { createSearchIndex } from "./search-index";
import { createSessionPages } from "./session-pages";

export type SessionRow = {
  id: string;
  workspace_id: string;
  agent_name: string;
  name: string | null;
  acp_session_id: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
};

/** Short, URL-safe, unguessable enough to never collide in one database. */
function newId(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString("base64url")}`;
}

function toRecord(row: SessionRow): SessionRecord {
  const record: SessionRecord = {
    id: row.id,
    workspace_id: row.workspace_id,
    agent_name: row.agent_name,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  if (row.name !== null) record.name = row.name;
  if (row.acp_session_id !== null) record.acp_session_id = row.acp_session_id;
  if (row.archived_at !== null) record.archived_at = row.archived_at;
  return record;
}

/** The workspace half of the store: a workspace is found by its root, or made once. */
function workspaceCalls(
  db: Database.Database,
  now: () => Date,
): Pick<SessionStore, "ensureWorkspace" | "listWorkspaces" | "getWorkspace"> {
  const workspaceByRoot = db.prepare<[string], Workspace>(
    "SELECT id, name, root_dir, created_at, updated_at FROM workspaces WHERE root_dir = ?",
  );
  const workspaceById = db.prepare<[string], Workspace>(
    "SELECT id, name, root_dir, created_at, updated_at FROM workspaces WHERE id = ?",
  );
  const allWorkspaces = db.prepare<[], Workspace>(
    "SELECT id, name, root_dir, created_at, updated_at FROM workspaces ORDER BY created_at, id",
  );
  const insertWorkspace = db.prepare(
    "INSERT INTO workspaces (id, name, root_dir, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
  );
  const ensureWorkspace = db.transaction((rootDir: string, name: string): Workspace => {
    const existing = workspaceByRoot.get(rootDir);
    if (existing) return existing;
    const at = now().toISOString();
    const workspace: Workspace = {
      id: newId("ws"),
      name,
      root_dir: rootDir,
      created_at: at,
      updated_at: at,
    };
    insertWorkspace.run(workspace.id, name, rootDir, at, at);
    return workspace;
  });
  return {
    ensureWorkspace: (rootDir, name) => ensureWorkspace.immediate(rootDir, name),
    listWorkspaces: () => allWorkspaces.all(),
    getWorkspace: (id) => workspaceById.get(id),
  };
}

/** Deletes a session and everything of it, in one immediate transaction. */
function sessionDeletion(db: Database.Database): (sessionId: string) => void {
  const markDeleting = db.prepare("UPDATE sessions SET deleting = 1 WHERE id = ?");
  // Children first (foreign keys); the ledger's delete trigger lets rows go only now that
  // the session is marked.
  const deleteStatements = [
    "DELETE FROM entry_tail_segments WHERE session_id = ?",
    "DELETE FROM entry_tails WHERE session_id = ?",
    "DELETE FROM entries WHERE session_id = ?",
    "DELETE FROM compactions WHERE session_id = ?",
    "DELETE FROM turns WHERE session_id = ?",
    "DELETE FROM usage_totals WHERE session_id = ?",
    "DELETE FROM prompt_admissions WHERE session_id = ?",
    "DELETE FROM ledger WHERE session_id = ?",
    "DELETE FROM sessions WHERE id = ?",
  ].map((sql) => db.prepare(sql));
  const search = createSearchIndex(db);
  const deleteSession = db.transaction((id: string) => {
    markDeleting.run(id);
    search.sessionDeleted(id);
    for (const statement of deleteStatements) statement.run(id);
  });
  return (sessionId) => deleteSession.immediate(sessionId);
}

export function createSessionStore(db: Database.Database, now: () => Date): SessionStore {
  const insertSession = db.prepare(
    `INSERT INTO sessions (id, workspace_id, agent_name, name, created_at, updated_at, activity_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  // updated_at is the time of the session's newest ledger row (ADR 0040: appends no longer
  // write the sessions row), or its creation time before the first row.
  const sessionColumns = `id, workspace_id, agent_name, name, acp_session_id, archived_at, created_at,
    COALESCE((SELECT l.created_at FROM ledger l WHERE l.session_id = sessions.id
      ORDER BY l.sequence DESC LIMIT 1), updated_at) AS updated_at`;
  const sessionById = db.prepare<[string], SessionRow>(
    `SELECT ${sessionColumns} FROM sessions WHERE id = ?`,
  );
  const allSessions = db.prepare<[], SessionRow>(
    `SELECT ${sessionColumns} FROM sessions ORDER BY updated_at DESC, id DESC`,
    // (A sort of the sessions table, not an index: see the migration.)
  );
  const workspaceSessions = db.prepare<[string], SessionRow>(
    `SELECT ${sessionColumns} FROM sessions WHERE workspace_id = ? ORDER BY updated_at DESC, id DESC`,
  );
  const pages = createSessionPages(db, sessionColumns);
  const updateAcpSessionId = db.prepare("UPDATE sessions SET acp_session_id = ? WHERE id = ?");
  const updateName = db.prepare("UPDATE sessions SET name = ? WHERE id = ?");
  const updateArchivedAt = db.prepare("UPDATE sessions SET archived_at = ? WHERE id = ?");

  return {
    ...workspaceCalls(db, now),
    createSession({ workspaceId, agentName, name }) {
      const at = now().toISOString();
      const id = newId("ses");
      insertSession.run(id, workspaceId, agentName, name ?? null, at, at, at);
      const record: SessionRecord = {
        id,
        workspace_id: workspaceId,
        agent_name: agentName,
        created_at: at,
        updated_at: at,
      };
      if (name !== undefined) record.name = name;
      return record;
    },
    getSession(id) {
      const row = sessionById.get(id);
      return row ? toRecord(row) : undefined;
    },
    listSessions({ workspaceId }) {
      const rows =
        workspaceId === undefined ? allSessions.all() : workspaceSessions.all(workspaceId);
      return rows.map(toRecord);
    },
    pageSessions(filter, page) {
      const { rows, total } = pages.page(filter, page);
      return { records: rows.map(toRecord), total };
    },
    setAcpSessionId(sessionId, acpSessionId) {
      updateAcpSessionId.run(acpSessionId, sessionId);
    },
    renameSession(sessionId, name) {
      updateName.run(name, sessionId);
    },
    setArchivedAt(sessionId, archivedAt) {
      updateArchivedAt.run(archivedAt, sessionId);
    },
    deleteSession: sessionDeletion(db),
  };
}
