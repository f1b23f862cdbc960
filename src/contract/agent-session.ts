// What a real agent adds to a session (ADRs 0090–0094): pending approvals (CompozyOS's
// `pending_interactions`; the approve body is in commands.ts), modes and config options with
// the calls that set them, and the configured agents.

import { Timestamp } from "./primitives";
import { z } from "./zod";

/** CompozyOS's decision names, one per ACP permission option kind. */
const PERMISSION_DECISIONS = {
  allow_once: "allow-once",
  allow_always: "allow-always",
  reject_once: "reject-once",
  reject_always: "reject-always",
} as const;

export function decisionOfKind(kind: string): string | undefined {
  return (PERMISSION_DECISIONS as Record<string, string>)[kind];
}

/** CompozyOS's `PendingInteractionPayload`: one approval waiting for (or past) a person. */
export const PendingInteraction = z.object({
  interaction_id: z.string(),
  kind: z.string(),
  provider_request_id: z.string(),
  turn_id: z.optional(z.string()),
  title: z.optional(z.string()),
  /** The agent's option names, in its order. */
  choices: z.optional(z.array(z.string())),
  /** The decisions (`allow-once` …) the options offer, in the same order. */
  decisions: z.optional(z.array(z.string())),
  status: z.string(),
  created_at: Timestamp,
  resolved_at: z.optional(Timestamp),
  resolution: z.optional(z.string()),
  resolved_by: z.optional(z.string()),
});
export type PendingInteraction = z.infer<typeof PendingInteraction>;

const SessionMode = z.object({
  id: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
});

/** The agent's modes (ACP `SessionModeState`) and the current one. */
export const SessionModes = z.object({
  current_mode_id: z.string(),
  available_modes: z.array(SessionMode),
});
export type SessionModes = z.infer<typeof SessionModes>;

/** CompozyOS's `SessionConfigOptionPayload` (plus `category` and value `group`). */
export const SessionConfigOption = z.object({
  id: z.string(),
  label: z.optional(z.string()),
  description: z.optional(z.string()),
  kind: z.string(),
  category: z.optional(z.string()),
  current: z.optional(z.string()),
  values: z.optional(
    z.array(
      z.object({
        value: z.string(),
        label: z.optional(z.string()),
        description: z.optional(z.string()),
        group: z.optional(z.string()),
      }),
    ),
  ),
});
export type SessionConfigOption = z.infer<typeof SessionConfigOption>;

/** `POST …/mode`: ACP `session/set_mode`. */
export const SetModeBody = z.strictObject({
  mode_id: z.string().check(z.trim()).check(z.minLength(1)).check(z.maxLength(200)),
});
export type SetModeBody = z.infer<typeof SetModeBody>;

/** `POST …/config`: ACP `session/set_config_option`; a boolean option takes a boolean. */
export const SetConfigBody = z.strictObject({
  config_id: z.string().check(z.trim()).check(z.minLength(1)).check(z.maxLength(200)),
  value: z.union([
    z.string().check(z.trim()).check(z.minLength(1)).check(z.maxLength(500)),
    z.boolean(),
  ]),
});
export type SetConfigBody = z.infer<typeof SetConfigBody>;

/** `GET /api/agents` query (CompozyOS: `workspace`, an id, name or path). */
export const AgentListQuery = z.object({
  workspace: z.optional(z.string().check(z.maxLength(4096))),
});

/**
 * `GET /api/agents`: the agents this daemon was configured with, default first. A client
 * reads `name`, `default` and `preset`; CompozyOS's agent definition always carries
 * `provider`, `origin`, `prompt` and `definition_digest` too (its web's New session picker
 * reads them), so the reference daemon sends them (`DaemonAgentList`).
 */
const AgentInfo = z.object({
  name: z.string(),
  default: z.boolean(),
  /** `claude`, `codex`, `demo` for the built-in presets; absent for a custom command. */
  preset: z.optional(z.string()),
  provider: z.optional(z.string()),
});
export const AgentList = z.object({ agents: z.array(AgentInfo) });
export const DaemonAgentList = z.object({
  agents: z.array(
    z.extend(AgentInfo, {
      /** The preset's name, or `custom` for a command of the person's own. */
      provider: z.string(),
      /** Configured on the daemon's command line, for every workspace. */
      origin: z.enum(["global", "workspace"]),
      /** Tideline adds no system prompt of its own to an agent. */
      prompt: z.string(),
      /** sha256 of the agent's command line: changes when the definition does. */
      definition_digest: z.string(),
    }),
  ),
});
export type DaemonAgentList = z.infer<typeof DaemonAgentList>;
export type AgentList = z.infer<typeof AgentList>;
