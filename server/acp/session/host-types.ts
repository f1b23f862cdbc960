// The session host's public vocabulary: what it is built from and what its callers send.
// Kept apart from the modules so routes, the MCP server and tests import types only.
import { createHash } from "node:crypto";
import type {
  CompactionCommand,
  DaemonCancelResult,
  DaemonPromptResultEnvelope,
  PromptMode,
} from "../../../src/contract/commands";
import type { SessionState } from "../../../src/contract/session";
import type { z } from "../../../src/contract/zod";
import type { ReplayBudget } from "../../domain/bounded-replay";
import type { Ledger, RequestedBy } from "../../domain/session-recorder-api";
import type { AgentGroupRegistry } from "../agent-groups";
import type { AgentCommand } from "../agent-process";
import type { PermissionPolicy } from "../permission-broker";

export type PromptResult = z.infer<typeof DaemonPromptResultEnvelope>["prompt"];
export type CancelResult = z.infer<typeof DaemonCancelResult>;

/** How long each handshake step (initialize, session/new, session/load) may take. */
export const INITIALIZE_TIMEOUT_MS = 30_000;

export type NamedAgent = AgentCommand & {
  name: string;
  /** The built-in preset it came from (`claude`, `codex`, `demo`), if any. */
  preset?: string;
};

export type SessionHostDeps = {
  ledger: Ledger;
  /** In configuration order; the first is the default. */
  agents: readonly NamedAgent[];
  version: string;
  /** Where agent processes run (relative agent commands resolve from here). */
  agentCwd: string;
  initializeTimeoutMs?: number;
  /** Who answers `session/request_permission` (`--permissions`, default `ask`). */
  permissions?: PermissionPolicy;
  /** How long a stopped agent gets between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** Where live agent process groups are recorded, so a restart can reap them. */
  groups?: AgentGroupRegistry;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  now?: () => Date;
  /** The one budget of every bounded replay (ADR 0085). */
  replayBudget?: ReplayBudget;
  /** The session tools (MCP) the daemon offers agents; absent, no agent gets any. */
  sessionTools?: SessionToolsOffer;
};

/** What the host needs of the session tools server (server/mcp/). */
export type SessionToolsOffer = {
  /** The `mcpServers` entry that gives this session's agent its tools. */
  serverFor(sessionId: string, workspaceId: string): McpServerEntry;
  /** The session's agent is gone: its secret stops working. */
  revoke(sessionId: string): void;
};
export type McpServerEntry = {
  type: "http";
  name: string;
  url: string;
  headers: { name: string; value: string }[];
};

export type DeriveInput = {
  agent?: string | undefined;
  name?: string | undefined;
  /** The new session's tool policy; the daemon's default (offered) when absent. */
  sessionTools?: boolean | undefined;
};

type TurnAccepted = { sessionId: string; turnId: string };
export type CompactAccepted = TurnAccepted & { command: CompactionCommand };

/** A prompt request as the host takes it (the route parsed `PromptBody`). */
export type PromptRequest = {
  text: string;
  messageId: string;
  idempotencyKey: string;
  mode?: PromptMode | undefined;
  /** The turn a steer or interrupt replaces (CompozyOS's fence against a stale click). */
  expectedTurnId?: string | undefined;
  /** Attribution of a typed compaction command (ADR 0092). */
  requestedBy?: RequestedBy | undefined;
};

/** CompozyOS answers a fresh prompt 200 and a replayed (or queued) one 202. */
export type PromptAnswer = { status: 200 | 202; prompt: PromptResult };

export type SessionListFilter = {
  workspaceId?: string | undefined;
  state?: SessionState | undefined;
  agentName?: string | undefined;
  archive?: "exclude" | "only" | "include" | undefined;
};

/** A content hash of a command list: the catalog's `revision`. */
export function commandsRevision(commands: readonly unknown[]): string {
  return `r-${createHash("sha256").update(JSON.stringify(commands)).digest("hex").slice(0, 16)}`;
}
