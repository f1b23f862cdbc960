// CompozyOS's session catalog filters and orders (`internal/session/catalog_page.go`,
// `internal/store/globaldb/global_db_session_page.go`) applied to the reference daemon's
// sessions, and the metadata-only health `include_health=true` adds (ADR 0191).
import type { DaemonSession, SessionHealth, SessionListQuery } from "../../src/contract/session";

/** CompozyOS `ClassForBadge`: the badges that ask the person for something. */
const NEEDS_YOU_BADGES: ReadonlySet<string> = new Set([
  "waiting-for-auth",
  "waiting-for-input",
  "failed",
]);

/** Needs you: a badge that says so, or an approval waiting (the badge's source here). */
export function needsYou(session: DaemonSession): boolean {
  return NEEDS_YOU_BADGES.has(session.badge) || session.pending_interactions.length > 0;
}

function turnRunning(session: DaemonSession): boolean {
  const turnId = session.activity?.turn_id;
  return turnId !== undefined && turnId !== "";
}

function matches(session: DaemonSession, query: SessionListQuery): boolean {
  // Every session of the reference daemon is a person's own.
  if (query.type !== undefined && query.type !== "user") return false;
  // No parents, roots or worktrees: a filter naming one matches nothing.
  for (const value of [query.parent, query.root, query.worktree]) {
    if (value !== undefined && value.trim() !== "") return false;
  }
  if (query.resumable === true && session.archived_at !== null) return false;
  if (query.attention === true && !needsYou(session)) return false;
  const badges = (query.badge ?? "")
    .split(",")
    .map((badge) => badge.trim())
    .filter((badge) => badge !== "");
  if (badges.length > 0 && !badges.includes(session.badge)) return false;
  const search = query.q?.trim().toLowerCase() ?? "";
  if (search !== "") {
    const haystack = [session.id, session.name ?? "", session.agent_name];
    if (!haystack.some((field) => field.toLowerCase().includes(search))) return false;
  }
  return true;
}

function newestFirst(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

function byRecent(a: DaemonSession, b: DaemonSession): number {
  return (
    newestFirst(a.updated_at, b.updated_at) ||
    newestFirst(a.created_at, b.created_at) ||
    newestFirst(a.id, b.id)
  );
}

function lastActivity(session: DaemonSession): string {
  return session.activity?.last_activity_at ?? session.updated_at;
}

const ORDERS = {
  recent: byRecent,
  last_activity: (a: DaemonSession, b: DaemonSession) =>
    newestFirst(lastActivity(a), lastActivity(b)) || byRecent(a, b),
  attention: (a: DaemonSession, b: DaemonSession) =>
    Number(needsYou(b)) - Number(needsYou(a)) || byRecent(a, b),
} as const;

/**
 * The sessions a CompozyOS catalog query selects. Without `sort` the daemon's own order
 * stays, unless the query asks for attention or badges, where CompozyOS sorts by attention.
 */
export function selectSessions(
  sessions: readonly DaemonSession[],
  query: SessionListQuery,
): DaemonSession[] {
  const selected = sessions.filter((session) => matches(session, query));
  const sort =
    query.sort ??
    (query.attention === true || (query.badge ?? "").trim() !== "" ? "attention" : undefined);
  return sort === undefined ? selected : selected.sort(ORDERS[sort]);
}

/** CompozyOS `SessionHealthPayload` from what the daemon knows of a session's agent. */
function sessionHealthOf(session: DaemonSession): SessionHealth {
  const prompting = turnRunning(session);
  const live = session.state === "active" || session.state === "starting";
  const health: SessionHealth = {
    session_id: session.id,
    workspace_id: session.workspace_id,
    agent_name: session.agent_name,
    state: session.state === "stopped" ? "stopped" : prompting ? "prompting" : "idle",
    health: live ? "healthy" : "unknown",
    active_prompt: prompting,
    attachable: session.attachable,
    eligible_for_wake: !prompting && session.archived_at === null,
    last_activity_at: session.activity?.last_activity_at ?? session.updated_at,
    updated_at: session.updated_at,
  };
  if (prompting) health.ineligibility_reason = "session_prompt_active";
  return health;
}

export function withHealth(session: DaemonSession, include: boolean | undefined): DaemonSession {
  return include === true ? { ...session, health: sessionHealthOf(session) } : session;
}

/**
 * Whether a list query needs what only the views know (search, badges, attention, sorts,
 * CompozyOS's lineage filters): those select among every session in memory; the rest is
 * paged in SQL (ADR 0140).
 */
export function selectsInMemory(query: SessionListQuery): boolean {
  const given = (value: string | undefined) => value !== undefined && value.trim() !== "";
  return (
    query.type !== undefined ||
    query.resumable !== undefined ||
    query.attention !== undefined ||
    query.sort !== undefined ||
    [query.parent, query.root, query.worktree, query.q, query.badge].some(given)
  );
}

/** One page of sessions selected in memory, and how many there were. */
export function pageOf(all: readonly DaemonSession[], offset: number, limit: number) {
  return { sessions: all.slice(offset, offset + limit), total: all.length };
}
