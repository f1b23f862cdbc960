// Test support: CompozyOS's own web client, as far as a test can be it without a browser.
// - the requests it sends around a session view, exactly (paths, queries, bodies), each
//   with the file of CompozyOS's `web/src` it comes from;
// - schemas of the answers it relies on, written from its generated OpenAPI types
//   (`web/src/generated/compozy-openapi.d.ts`), independent of Tideline's own contract;
// - its transcript parser: the AI SDK's real `validateUIMessages` (the `ai` package), fed
//   the way CompozyOS's `message-schemas.ts` feeds it, plus assistant-ui's one rule the SDK
//   does not check (a system message is exactly one text part).
import { validateUIMessages } from "ai";
import { z } from "../../src/contract/zod";

export type CompozyWebRequest = {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  /** Where in CompozyOS's `web/src` the request is made. */
  source: string;
};

/** The requests CompozyOS's web makes to open one session and send it a prompt. */
export function compozyWebRequests(ws: string, id: string, prompt: string): CompozyWebRequest[] {
  const session = `/api/workspaces/${ws}/sessions/${id}`;
  const messageId = `msg_${id}_1`;
  return [
    { name: "status", method: "GET", path: "/api/status", source: "lib/gateway-stream-auth.ts" },
    {
      name: "onboarding",
      method: "GET",
      path: "/api/onboarding",
      source: "systems/onboarding (first-run gate)",
    },
    {
      name: "attention list",
      method: "GET",
      path: "/api/sessions?include_health=true&attention=true&sort=attention&limit=100",
      source: "systems/os/hooks/use-attention-rows.ts",
    },
    {
      name: "finished list",
      method: "GET",
      path: "/api/sessions?badge=done&include_health=true&limit=100&sort=attention",
      source: "systems/os/hooks/use-attention-rows.ts",
    },
    {
      name: "workspace activity",
      method: "GET",
      path: `/api/sessions?workspace=${ws}&state=active&type=user&sort=last_activity&limit=1`,
      source: "systems/session/hooks/use-workspace-session-activity.ts",
    },
    {
      name: "workspace group",
      method: "GET",
      path: `/api/sessions?workspace=${ws}&include_health=true&limit=100&sort=recent`,
      source: "systems/session/hooks/use-workspace-session-groups.ts",
    },
    {
      name: "attention summary",
      method: "GET",
      path: "/api/sessions/attention-summary",
      source: "systems/session/adapters/session-attention-api.ts",
    },
    {
      name: "agents",
      method: "GET",
      path: `/api/agents?workspace=${ws}`,
      source: "systems/session/components/session-create-dialog.tsx",
    },
    {
      name: "detail",
      method: "GET",
      path: `${session}?include_health=true`,
      source: "systems/session/adapters/session-api.ts fetchSession",
    },
    {
      name: "transcript",
      method: "GET",
      path: `${session}/transcript?limit=200`,
      source: "systems/session/adapters/session-transcript-api.ts",
    },
    {
      name: "usage",
      method: "GET",
      path: `${session}/usage`,
      source: "systems/session/adapters/session-api.ts",
    },
    {
      name: "commands",
      method: "GET",
      path: `${session}/commands`,
      source: "systems/session/adapters/session-command-api.ts",
    },
    {
      name: "goal",
      method: "GET",
      path: `${session}/goal`,
      source: "systems/session/adapters/session-goal-api.ts",
    },
    {
      name: "clarifications",
      method: "GET",
      path: `${session}/clarifications`,
      source: "systems/session/adapters/session-clarification-api.ts",
    },
    {
      name: "queue",
      method: "GET",
      path: `${session}/prompt/queue`,
      source: "systems/session/adapters/session-input-api.ts",
    },
    {
      name: "presence",
      method: "POST",
      path: `${session}/presence`,
      body: { visible: true },
      source: "systems/session/adapters/session-presence-api.ts",
    },
    {
      name: "prompt",
      method: "POST",
      path: `${session}/prompt`,
      body: {
        idempotency_key: `idem_${messageId}`,
        message_id: messageId,
        messages: [
          {
            id: messageId,
            role: "user",
            parts: [{ type: "text", text: prompt }],
            metadata: { composer: "session" },
          },
        ],
        mode: "queue",
      },
      source: "systems/session/components/session-chat-runtime-provider.tsx",
    },
  ];
}

const Timestamp = z.string().check(z.minLength(1));
const Int = z.int();

/** `SessionPayload`'s required fields (listSessions / getSession). */
export const CompozySession = z.looseObject({
  id: z.string().check(z.minLength(1)),
  agent_name: z.string(),
  archived_at: z.nullable(Timestamp),
  attachable: z.boolean(),
  available_commands: z.array(
    z.looseObject({ name: z.string(), description: z.string(), input: z.optional(z.unknown()) }),
  ),
  badge: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  pending_interactions: z.array(
    z.looseObject({
      created_at: Timestamp,
      interaction_id: z.string(),
      kind: z.string(),
      provider_request_id: z.string(),
      status: z.string(),
    }),
  ),
  runtime: z.looseObject({ selection_revision: Int, status: z.string() }),
  state: z.enum(["starting", "active", "stopping", "stopped"]),
  health: z.nullish(
    z.looseObject({
      active_prompt: z.boolean(),
      agent_name: z.string(),
      attachable: z.boolean(),
      eligible_for_wake: z.boolean(),
      health: z.enum(["healthy", "degraded", "stale", "dead", "unknown"]),
      session_id: z.string(),
      state: z.enum(["idle", "prompting", "stopped", "detached"]),
      updated_at: Timestamp,
      workspace_id: z.string(),
    }),
  ),
});

export const CompozySessionList = z.looseObject({
  sessions: z.array(CompozySession),
  page: z.looseObject({ has_more: z.boolean(), limit: Int, total: Int }),
});

export const CompozyUsage = z.looseObject({
  usage: z
    .looseObject({
      turn_count: Int,
      total_cost: z.nullish(z.number()),
      cost_status: z.optional(z.enum(["actual", "estimated", "included", "unknown"])),
      cost_source: z.optional(
        z.enum(["agent_reported", "catalog_config", "models_dev", "builtin", "none"]),
      ),
    })
    .check(
      z.refine((usage) => usage.total_cost == null || usage.cost_status !== undefined, {
        message: "a cost without cost_status shows as —",
      }),
    ),
});

export const CompozyAgents = z.looseObject({
  agents: z.array(
    z.looseObject({
      name: z.string(),
      provider: z.string(),
      origin: z.enum(["global", "workspace"]),
      prompt: z.string(),
      definition_digest: z.string(),
    }),
  ),
});

export const CompozyTranscriptPage = z.looseObject({
  entries: z.array(z.looseObject({ message: z.unknown(), start_sequence: Int, sequence: Int })),
  epoch: Int,
  generation: Int,
  has_older: z.boolean(),
  max_sequence: Int,
  limit: Int,
});

export const CompozyAnswers: Record<string, z.ZodMiniType> = {
  status: z.looseObject({
    schema_version: z.string(),
    generated_at: Timestamp,
    daemon: z.looseObject({
      active_sessions: Int,
      pid: Int,
      started_at: Timestamp,
      status: z.string(),
      total_sessions: Int,
      http_port: Int,
    }),
    health: z.looseObject({ status: z.string(), uptime_seconds: Int, version: z.string() }),
    sessions: z.looseObject({ active: Int, total: Int }),
    automation: z.looseObject({ enabled: z.boolean() }),
    bridges: z.looseObject({ total_instances: Int }),
    config: z.looseObject({ status: z.string() }),
    log_tail: z.looseObject({ available: z.boolean() }),
    memory: z.looseObject({ enabled: z.boolean() }),
    skills: z.looseObject({ runtime_available: z.boolean() }),
    subprocess_health: z.looseObject({ status: z.string() }),
    tasks: z.looseObject({ status: z.string() }),
  }),
  onboarding: z.looseObject({ onboarding: z.looseObject({ completed: z.boolean() }) }),
  "attention list": CompozySessionList,
  "finished list": CompozySessionList,
  "workspace activity": CompozySessionList,
  "workspace group": CompozySessionList,
  "attention summary": z.looseObject({
    needs_you: Int,
    finished: Int,
    by_workspace: z.array(
      z.looseObject({ workspace_id: z.string(), needs_you: Int, finished: Int }),
    ),
  }),
  agents: CompozyAgents,
  detail: z.looseObject({ session: CompozySession }),
  transcript: CompozyTranscriptPage,
  usage: CompozyUsage,
  commands: z.looseObject({ commands: z.array(z.unknown()) }),
  goal: z.looseObject({ goal: z.unknown() }),
  clarifications: z.looseObject({ clarifications: z.array(z.unknown()) }),
  queue: z.looseObject({ inputs: z.array(z.unknown()) }),
  presence: z.looseObject({ lease_id: z.string().check(z.minLength(1)) }),
  prompt: z.looseObject({
    prompt: z.looseObject({ message_id: z.string(), status: z.string(), delivery: z.string() }),
  }),
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** CompozyOS turns every `tool-*` part into the SDK's `dynamic-tool` before validating. */
function asDynamicTool(part: Record<string, unknown>): Record<string, unknown> {
  const type = String(part.type);
  const toolName = type.slice("tool-".length) || "tool";
  const dynamic: Record<string, unknown> = { ...part, type: "dynamic-tool", toolName };
  if (typeof dynamic.toolCallId !== "string") dynamic.toolCallId = `${toolName}-call`;
  if (part.state === "output-error") {
    dynamic.errorText = typeof part.errorText === "string" ? part.errorText : "failed";
    delete dynamic.output;
  } else if (part.state === "output-available") {
    delete dynamic.errorText;
  } else {
    delete dynamic.output;
    delete dynamic.errorText;
  }
  return dynamic;
}

/**
 * Parses messages as CompozyOS's web does; throws with the first message it would refuse
 * (the whole page is refused then). Returns how many messages passed.
 */
export async function parseLikeCompozyWeb(messages: readonly unknown[]): Promise<number> {
  const prepared = messages.map((message) => {
    if (!isRecord(message) || !Array.isArray(message.parts)) return message;
    return {
      ...message,
      parts: message.parts.map((part) =>
        isRecord(part) && typeof part.type === "string" && part.type.startsWith("tool-")
          ? asDynamicTool(part)
          : part,
      ),
    };
  });
  for (const message of prepared) {
    if (!isRecord(message) || message.role !== "system") continue;
    const parts = Array.isArray(message.parts) ? message.parts : [];
    if (parts.length !== 1 || !isRecord(parts[0]) || parts[0].type !== "text") {
      throw new Error(
        `System messages must have exactly one text message part: ${JSON.stringify(message).slice(0, 300)}`,
      );
    }
  }
  const dataSchemas: Record<string, z.ZodMiniType> = {
    "compozy-event": z.looseObject({ type: z.string() }),
    "compozy-permission": z.looseObject({ type: z.string(), request_id: z.string() }),
  };
  for (const message of prepared) {
    if (!isRecord(message) || !Array.isArray(message.parts)) continue;
    for (const part of message.parts) {
      const type = isRecord(part) && typeof part.type === "string" ? part.type : "";
      if (type.startsWith("data-")) dataSchemas[type.slice(5)] ??= z.unknown();
    }
  }
  if (prepared.length === 0) return 0;
  const validated = await validateUIMessages({ messages: prepared, dataSchemas });
  return validated.length;
}
