// One piece: the ledger's whole interface (recorder, reader, store, settings) in one place,
// so a change to the seam is read and reviewed together; it holds types only.
// The seam between the agent host / HTTP layer and the ledger. Everything the daemon
// learns about a session goes in through `SessionRecorder` (one SQLite transaction per
// call: ledger append + projection update), and every read model comes out of
// `SessionReader`. Listeners hear about a commit only after it is durable.

import type { CompactionCommand } from "../../src/contract/commands";
import type { CompactionAudit } from "../../src/contract/compaction-audit";
import type {
  DaemonEventList,
  DaemonHistory,
  DaemonSessionEvent,
} from "../../src/contract/history";
import type { SessionSearchMatch, WorkspaceSearchHit } from "../../src/contract/search";
import type { AvailableCommand, SessionState, Workspace } from "../../src/contract/session";
import type { DaemonEntry, TranscriptPage } from "../../src/contract/transcript";
import type { DaemonSessionUsage, UsageTurns } from "../../src/contract/usage";
import type { z } from "../../src/contract/zod";
import type { ExportReader } from "./export-reader-api";

/** Rows per read of one history group: what one step of a streamed answer holds. */
export const HISTORY_BATCH = 500;

type EventList = z.infer<typeof DaemonEventList>;
export type History = z.infer<typeof DaemonHistory>;
export type SessionUsage = z.infer<typeof DaemonSessionUsage>;

import type { ConfigOption, ModeState } from "./agent-session-info";
import type { SessionInputStore } from "./session-inputs-api";

/** One ledger row, as stored (docs/ledger.md §2). `content` is the parsed JSON. */
export type LedgerRow = {
  session_id: string;
  sequence: number;
  turn_id: string | null;
  type: string;
  content: Record<string, unknown>;
  created_at: string;
};

/** Published after every committed append, in commit order. */
export type CommitNotice = {
  sessionId: string;
  rows: readonly LedgerRow[];
  maxSequence: number;
};

/** One turn of `history` ('' for session-level rows) and its first matching row. */
export type HistoryGroup = { turn_id: string; first_sequence: number };

/** A filter of `events` / `history` (CompozyOS's session event query). */
export type EventFilter = {
  turn_id?: string | undefined;
  type?: string | undefined;
  after_sequence?: number | undefined;
  since?: string | undefined;
  agent_name?: string | undefined;
  limit: number;
};

/** Who asked for Compact now; `tool` is an agent through `tideline__session_compact`. */
export type RequestedBy = "web" | "cli" | "http" | "tool";

export type PromptCompletion = {
  stop_reason: string;
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  thought_tokens?: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
};

/** A prompt's idempotency record (`prompt_admissions`). */
export type PromptAdmission = {
  idempotency_key: string;
  message_id: string;
  /** What the request asked for: a retry with the same key must ask for the same. */
  fingerprint: string;
  /** The `prompt` object the first send was answered with. */
  result: Record<string, unknown>;
};

type PermissionRecord = { tool_call_id: string; options: unknown[]; outcome: unknown };

/** One option of a permission request, as recorded: the agent's own words and kind. */
export type PermissionOptionRecord = {
  option_id: string;
  name: string;
  kind: string;
  /** CompozyOS's decision name for the kind (`allow-once` …), when it has one. */
  decision?: string;
};

/** `permission.requested`: a `session/request_permission` the daemon received. */
export type PermissionRequestRecord = {
  request_id: string;
  tool_call_id: string;
  title: string;
  kind?: string;
  /** The request's `toolCall`, verbatim (command, diff content, locations…). */
  tool_call: Record<string, unknown>;
  options: PermissionOptionRecord[];
  /** The `--permissions` policy in force when it arrived. */
  policy: string;
};

/** `permission.resolved`: how the request was answered, and by whom. */
export type PermissionResolutionRecord = {
  request_id: string;
  tool_call_id: string;
  outcome: "selected" | "cancelled";
  option_id?: string;
  option_name?: string;
  option_kind?: string;
  decision?: string;
  /** CompozyOS's interaction status: `resolved`, `canceled` (turn cancelled), `orphaned`. */
  status: "resolved" | "canceled" | "orphaned";
  /** `web` / `cli` / `http` for a person, `policy` for `--permissions`, `daemon` otherwise. */
  resolved_by: string;
  reason?: string;
};

/** What the agent said about the session itself (ADR 0090), newest of each. */
export type SessionSettings = {
  /** `session_info_update.title`; null when the agent cleared it. */
  title?: string | null;
  modes?: ModeState;
  config_options?: ConfigOption[];
  model?: string;
};

/** Metadata of a session that is not part of the ledger (mutable, small). */
export type SessionRecord = {
  id: string;
  workspace_id: string;
  agent_name: string;
  name?: string;
  /** The agent's own ACP session id, once `session/new` answered (for `session/load`). */
  acp_session_id?: string;
  /** When the session was archived (hidden from the default list); absent otherwise. */
  archived_at?: string;
  created_at: string;
  updated_at: string;
};

export type SessionPageFilter = {
  workspaceId?: string | undefined;
  agentName?: string | undefined;
  /** The recorded state (the newest `session.state` row). */
  state?: SessionState | undefined;
  archive: "exclude" | "only" | "include";
};
type SessionPage = { records: SessionRecord[]; total: number };

export interface SessionStore {
  ensureWorkspace(rootDir: string, name: string): Workspace;
  listWorkspaces(): Workspace[];
  getWorkspace(id: string): Workspace | undefined;
  createSession(input: { workspaceId: string; agentName: string; name?: string }): SessionRecord;
  getSession(id: string): SessionRecord | undefined;
  /** Newest activity first (`updated_at` = time of the newest ledger row). */
  listSessions(filter: { workspaceId?: string }): SessionRecord[];
  /**
   * One page of the filtered list, newest activity first, and how many match in all: an
   * index range in SQL, whatever the number of sessions (ADR 0140).
   */
  pageSessions(filter: SessionPageFilter, page: { offset: number; limit: number }): SessionPage;
  setAcpSessionId(sessionId: string, acpSessionId: string): void;
  renameSession(sessionId: string, name: string): void;
  setArchivedAt(sessionId: string, archivedAt: string | null): void;
  /** Removes the session and every row of its history (ledger included). */
  deleteSession(sessionId: string): void;
}

/**
 * Writes. Each call is one transaction and returns the rows it appended (possibly none,
 * e.g. a compaction frame that changed nothing exposed). `turnId` is null between turns.
 */
export interface SessionRecorder {
  recordState(sessionId: string, state: SessionState, reason?: string): LedgerRow[];
  recordInput(
    sessionId: string,
    turnId: string,
    text: string,
    options?: { maintenance?: boolean },
  ): LedgerRow[];
  /**
   * A prompt accepted under an idempotency key: its admission (what a retry is answered
   * with) and its `input` row, in one transaction.
   */
  recordPrompt(
    sessionId: string,
    turnId: string,
    text: string,
    admission: PromptAdmission,
  ): LedgerRow[];
  /**
   * Compact now accepted: `session.compaction.requested` + the maintenance `input` row, and
   * for a typed compaction command its prompt admission, in the same transaction. A typed
   * command (`typed`) keeps the person's own line and its message id on the input row,
   * marked `typed`, so the timeline can say "You typed /compact" (ADR 0116).
   */
  recordCompactionRequested(
    sessionId: string,
    turnId: string,
    request: {
      command: CompactionCommand;
      requested_by: RequestedBy;
      typed?: { text: string; message_id: string };
    },
    admission?: PromptAdmission,
  ): LedgerRow[];
  /**
   * One ACP `session/update` payload (`params.update`), exactly as received and not yet
   * validated: the recorder validates it, applies the compaction rules, and records
   * invalid ones as `agent.invalid_frame` (with `rawLine`, the stdout line it came in,
   * as their `raw` when given) and unmodelled ones as `agent.unknown_update`.
   */
  recordUpdate(
    sessionId: string,
    turnId: string | null,
    update: unknown,
    rawLine?: string,
  ): LedgerRow[];
  /** Modes and config options from the answer to `session/new` or `session/load`. */
  recordSessionSetup(
    sessionId: string,
    response: { modes?: unknown; configOptions?: unknown },
  ): LedgerRow[];
  /** `session/set_mode` succeeded: the mode the client set (`source: client`). */
  recordModeSet(sessionId: string, modeId: string): LedgerRow[];
  /**
   * What a continued or forked session's bounded replay carries (ADR 0136), recorded once
   * when it is derived: the timeline shows it before the first turn.
   */
  recordReplayCarried(sessionId: string, carried: Record<string, unknown>): LedgerRow[];
  /** An extension notification outside `session/update` (`_auth/status_update`): quiet. */
  recordExtension(
    sessionId: string,
    turnId: string | null,
    method: string,
    params: unknown,
  ): LedgerRow[];
  recordPermissionRequested(
    sessionId: string,
    turnId: string | null,
    request: PermissionRequestRecord,
  ): LedgerRow[];
  recordPermissionResolved(
    sessionId: string,
    turnId: string | null,
    resolution: PermissionResolutionRecord,
  ): LedgerRow[];
  /** A stdout line that is not a valid frame at all (bad JSON, bad JSON-RPC envelope…). */
  recordInvalidFrame(
    sessionId: string,
    turnId: string | null,
    raw: string,
    error: string,
  ): LedgerRow[];
  recordPromptCompleted(
    sessionId: string,
    turnId: string,
    completion: PromptCompletion,
  ): LedgerRow[];
  recordPermission(
    sessionId: string,
    turnId: string | null,
    permission: PermissionRecord,
  ): LedgerRow[];
  /**
   * The agent process ended: closes every non-terminal compaction as `cancelled` by the
   * daemon (docs/ledger.md §3.10), then appends `agent.exited`.
   */
  recordAgentExited(
    sessionId: string,
    turnId: string | null,
    exit: { code: number | null; signal: string | null },
  ): LedgerRow[];
  /** Same daemon-side close of open compactions, for a stop without an exit row. */
  closeOpenCompactions(sessionId: string, turnId: string | null): LedgerRow[];
  onCommit(listener: (notice: CommitNotice) => void): () => void;
  /**
   * Runs `work` as one transaction: the record calls inside it commit together and their
   * notices reach listeners after that commit, in order (ADR 0043). Nested: part of the outer.
   */
  batch(work: () => void): void;
}

/** Reads. All are O(page) or O(log n) on indexed projection tables, never a re-fold. */
export interface SessionReader {
  transcriptPage(
    sessionId: string,
    query: { limit: number; beforeSequence?: number },
  ): TranscriptPage;
  /**
   * The same page as JSON text, exactly the bytes of `JSON.stringify(transcriptPage(…))`,
   * built without parsing the stored messages (the HTTP route's path).
   */
  transcriptPageJson(sessionId: string, query: { limit: number; beforeSequence?: number }): string;
  /** Every entry whose newest `sequence` is above `cursor`, oldest `start_sequence` first. */
  entriesChangedAfter(sessionId: string, cursor: number): DaemonEntry[];
  maxSequence(sessionId: string): number;
  /** The stable `epoch` / `generation` pair of this session's history. */
  historyVersion(sessionId: string): { epoch: number; generation: number };
  usage(sessionId: string): SessionUsage;
  usageTurns(sessionId: string): UsageTurns;
  /** Groups by turn; `limit` is the number of (newest) groups. Built whole: for tools and tests. */
  history(sessionId: string, query: EventFilter): History;
  /** The groups `history` answers, oldest first, without their rows (ADR 0117). */
  historyGroups(sessionId: string, query: EventFilter): HistoryGroup[];
  /** Up to `limit` (usually `HISTORY_BATCH`) events of one group after `after`, oldest first. */
  historyGroupEvents(
    sessionId: string,
    query: EventFilter,
    group: HistoryGroup,
    after: number,
    limit: number,
  ): DaemonSessionEvent[];
  /** The newest `limit` matching rows, oldest first; summary chunks never appear. */
  events(sessionId: string, query: EventFilter): EventList;
  /** Latest `available_commands` row's commands ([] when none). */
  availableCommands(sessionId: string): AvailableCommand[];
  /** Title, modes, config options and model: newest of each, O(log n) lookups. */
  sessionSettings(sessionId: string): SessionSettings;
  /** Permission requests with no `permission.resolved` row yet (after a crash). */
  unresolvedPermissions(
    sessionId: string,
  ): { request_id: string; tool_call_id: string; turn_id: string | null }[];
  /** Latest `session.state` row's state (`stopped` when none). */
  lastState(sessionId: string): { state: SessionState; reason?: string };
  /** The admission of a prompt sent earlier under this key, if any. */
  promptAdmission(
    sessionId: string,
    idempotencyKey: string,
  ): (PromptAdmission & { turn_id: string }) | undefined;
  /** Compaction ids that are not terminal yet. */
  openCompactions(sessionId: string): string[];
}

/** A bounded replay a rebuilt session owes the agent session `acpSessionId` (ADR 0086). */
type PendingReplay = {
  sessionId: string;
  acpSessionId: string;
  reason: string;
  text: string;
  createdAt: string;
};

/** Durable replay obligations; `clear` throws when the delete cannot be committed. */
export interface PendingReplayStore {
  put(replay: Omit<PendingReplay, "createdAt">): void;
  get(sessionId: string): PendingReplay | undefined;
  clear(sessionId: string): void;
}

export type DerivationKind = "continue" | "fork";
export type Derivation = { sourceSessionId: string; kind: DerivationKind; createdAt: string };

/** A pinned user message (ADR 0165), as `GET …/pins` lists it. */
type SessionPin = { entry_id: string; pinned_at: string };
export type PinOutcome =
  | { kind: "pinned"; pin: SessionPin }
  | { kind: "unknown_entry" }
  | { kind: "not_a_user_message" };

/** Small per-session settings beside the metadata: lineage, tool policy, pins. */
export interface SessionSettingsStore {
  /** Pins a user message of the session; pinning it again keeps the first time. */
  pin(sessionId: string, entryId: string): PinOutcome;
  /** False when it was not pinned. */
  unpin(sessionId: string, entryId: string): boolean;
  pinsOf(sessionId: string): SessionPin[];
  /** The pinned entry ids, for the compaction audit. */
  pinnedEntryIdsOf(sessionId: string): string[];
  recordDerivation(sessionId: string, sourceSessionId: string, kind: DerivationKind): void;
  derivationOf(sessionId: string): Derivation | undefined;
  /** The sessions continued or forked from `sourceSessionId`, oldest first. */
  derivationsFrom(sourceSessionId: string): Array<Derivation & { sessionId: string }>;
  setSessionTools(sessionId: string, offered: boolean): void;
  /** The session's own choice; undefined means the daemon's default. */
  sessionToolsOf(sessionId: string): boolean | undefined;
  setHistoryScope(sessionId: string, scope: HistoryScope): void;
  /** `lineage` (the default): its own session and the ones it was continued or forked from. */
  historyScopeOf(sessionId: string): HistoryScope;
}

/** What the history tool lets a session's agent read (ADR 0173). */
export type HistoryScope = "lineage" | "workspace";

/** The compaction audit of one compaction (ADR 0156); undefined: no such compaction. */
export interface AuditReader {
  audit(
    sessionId: string,
    compactionId: string,
    pinnedEntryIds: readonly string[],
  ): CompactionAudit | undefined;
}

/** Transcript search over the FTS5 index (ADR 0230); `words` are `searchWords(q)`. */
export type TranscriptSearch = {
  /** The session's matching entries, oldest first (up to `limit`); `total` counts them all. */
  session(
    sessionId: string,
    words: readonly string[],
    limit: number,
  ): { total: number; matches: SessionSearchMatch[] };
  /** The best matching entries across a workspace's sessions, one hit per entry. */
  workspace(workspaceId: string, words: readonly string[], limit: number): WorkspaceSearchHit[];
};

export type Ledger = {
  store: SessionStore;
  /** The prompt queue (ADR 0220). */
  inputs: SessionInputStore;
  search: TranscriptSearch;
  audits: AuditReader;
  exports: ExportReader;
  replays: PendingReplayStore;
  settings: SessionSettingsStore;
  recorder: SessionRecorder;
  reader: SessionReader;
  /** The database's size on disk, for the status payload. */
  sizeBytes(): number;
  close(): void;
};
