// Our own validation of an ACP `session/update` payload (`params.update`). The SDK drops
// frames that fail its schema before any handler runs, so the recorder validates the raw
// payload itself and decides: a modelled update, a valid-but-unmodelled one (recorded as
// `agent.unknown_update`), or an invalid frame (`agent.invalid_frame`, nothing applied).
// Fields the spec gives meaning to are checked strictly (docs/ledger.md §3.9: wrong types
// are a bad frame); unknown extra keys are kept, as ACP allows extension fields.

import { isJsonObject } from "../../src/contract/json-value";
import { z } from "../../src/contract/zod";

const Meta = z.nullish(z.record(z.string(), z.unknown()));

const TextBlock = z.looseObject({ type: z.literal("text"), text: z.string() });
const ImageBlock = z.looseObject({
  type: z.literal("image"),
  data: z.string(),
  mimeType: z.string(),
});
const AudioBlock = z.looseObject({
  type: z.literal("audio"),
  data: z.string(),
  mimeType: z.string(),
});
const ResourceLinkBlock = z.looseObject({
  type: z.literal("resource_link"),
  name: z.string(),
  uri: z.string(),
});
const ResourceBlock = z.looseObject({
  type: z.literal("resource"),
  resource: z.looseObject({ uri: z.string() }),
});

export const ContentBlock = z.discriminatedUnion("type", [
  TextBlock,
  ImageBlock,
  AudioBlock,
  ResourceLinkBlock,
  ResourceBlock,
]);
export type ContentBlock = z.infer<typeof ContentBlock>;

const MessageChunk = z.looseObject({
  content: ContentBlock,
  messageId: z.nullish(z.string()),
  _meta: Meta,
});

const AgentMessageChunk = z.extend(MessageChunk, {
  sessionUpdate: z.literal("agent_message_chunk"),
});
const AgentThoughtChunk = z.extend(MessageChunk, {
  sessionUpdate: z.literal("agent_thought_chunk"),
});

// Tool kind and status are kept as strings: an unfamiliar kind still renders as
// `tool-<kind>`, an unfamiliar status as a running tool, instead of losing the frame.
/** What a tool call and its updates share; an update may leave any of it out. */
const toolCallFields = {
  toolCallId: z.string().check(z.minLength(1)),
  kind: z.nullish(z.string()),
  status: z.nullish(z.string()),
  content: z.nullish(z.array(z.unknown())),
  locations: z.nullish(z.array(z.unknown())),
  rawInput: z.optional(z.unknown()),
  rawOutput: z.optional(z.unknown()),
};

const ToolCall = z.looseObject({
  sessionUpdate: z.literal("tool_call"),
  title: z.string(),
  ...toolCallFields,
});

const ToolCallUpdate = z.looseObject({
  sessionUpdate: z.literal("tool_call_update"),
  title: z.nullish(z.string()),
  ...toolCallFields,
});

const Plan = z.looseObject({
  sessionUpdate: z.literal("plan"),
  entries: z.array(
    z.looseObject({ content: z.string(), priority: z.string(), status: z.string() }),
  ),
});

const AvailableCommandsUpdate = z.looseObject({
  sessionUpdate: z.literal("available_commands_update"),
  availableCommands: z.array(
    z.looseObject({
      name: z.string(),
      description: z.string(),
      input: z.nullish(z.looseObject({ hint: z.string() })),
    }),
  ),
});

const UsageUpdate = z.looseObject({
  sessionUpdate: z.literal("usage_update"),
  used: z.int().check(z.nonnegative()),
  size: z.int().check(z.nonnegative()),
  cost: z.nullish(
    z.looseObject({ amount: z.number().check(z.nonnegative()), currency: z.string() }),
  ),
  _meta: Meta,
});

const CompactionUpdate = z.looseObject({
  sessionUpdate: z.literal("compaction_update"),
  compactionId: z.string().check(z.minLength(1)),
  status: z.string().check(z.minLength(1)),
  summary: z.nullish(z.array(ContentBlock)),
  error: z.nullish(z.string()),
  _meta: Meta,
});
export type CompactionUpdateFrame = z.infer<typeof CompactionUpdate>;

const CompactionSummaryChunk = z.looseObject({
  sessionUpdate: z.literal("compaction_summary_chunk"),
  compactionId: z.string().check(z.minLength(1)),
  content: ContentBlock,
  _meta: Meta,
});
export type CompactionChunkFrame = z.infer<typeof CompactionSummaryChunk>;

const UserMessageChunk = z.extend(MessageChunk, {
  sessionUpdate: z.literal("user_message_chunk"),
});

const CurrentModeUpdate = z.looseObject({
  sessionUpdate: z.literal("current_mode_update"),
  currentModeId: z.string().check(z.minLength(1)),
});

// ACP skips config options it cannot read ("x-deserialize-skip-invalid-items"); so does
// the recorder, item by item, instead of failing the whole frame.
const ConfigOptionUpdate = z.looseObject({
  sessionUpdate: z.literal("config_option_update"),
  configOptions: z.array(z.unknown()),
});

const SessionInfoUpdate = z.looseObject({
  sessionUpdate: z.literal("session_info_update"),
  title: z.nullish(z.string()),
  updatedAt: z.nullish(z.string()),
  _meta: Meta,
});

const Notice = z.looseObject({
  sessionUpdate: z.literal("notice"),
  severity: z.string().check(z.minLength(1)),
  title: z.string().check(z.minLength(1)),
  description: z.nullish(z.string()),
  _meta: Meta,
});

const ModelledUpdate = z.discriminatedUnion("sessionUpdate", [
  AgentMessageChunk,
  AgentThoughtChunk,
  UserMessageChunk,
  ToolCall,
  ToolCallUpdate,
  Plan,
  AvailableCommandsUpdate,
  UsageUpdate,
  CompactionUpdate,
  CompactionSummaryChunk,
  CurrentModeUpdate,
  ConfigOptionUpdate,
  SessionInfoUpdate,
  Notice,
]);
export type ModelledUpdate = z.infer<typeof ModelledUpdate>;

const MODELLED = new Set<string>(
  ModelledUpdate.def.options.flatMap((option) => option.shape.sessionUpdate.def.values),
);

export type ParsedUpdate =
  | { kind: "modelled"; update: ModelledUpdate }
  | { kind: "unmodelled"; raw: Record<string, unknown> }
  | { kind: "invalid"; error: string };

function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "update"}: ${issue.message}`)
    .join("; ");
}

/**
 * The bulk of a stream, checked by hand: a message or thought chunk whose content is a
 * plain `{type: "text", text}` block and that has no `_meta`. Gives what zod gives (the
 * update's own keys, a fresh content block); anything else returns undefined and goes
 * through zod. Saves the schema walk on most frames.
 */
function plainTextChunk(update: Record<string, unknown>): ModelledUpdate | undefined {
  const kind = update.sessionUpdate;
  if (kind !== "agent_message_chunk" && kind !== "agent_thought_chunk") return undefined;
  if ("_meta" in update) return undefined;
  const messageId = update.messageId;
  if (
    messageId === undefined
      ? "messageId" in update
      : messageId !== null && typeof messageId !== "string"
  ) {
    return undefined;
  }
  const content = update.content;
  if (!isJsonObject(content)) return undefined;
  if (content.type !== "text" || typeof content.text !== "string") return undefined;
  const keys = Object.keys(content);
  if (keys.length !== 2 || keys[0] !== "type" || keys[1] !== "text") return undefined;
  // Zod's key order: the schema's keys as given, then extension keys as they came.
  const parsed: Record<string, unknown> = { content: { type: "text", text: content.text } };
  if (messageId !== undefined) parsed.messageId = messageId;
  parsed.sessionUpdate = kind;
  for (const key of Object.keys(update)) {
    if (key !== "content" && key !== "messageId" && key !== "sessionUpdate") {
      parsed[key] = update[key];
    }
  }
  return parsed as ModelledUpdate;
}

export function parseAcpUpdate(update: unknown): ParsedUpdate {
  if (isJsonObject(update)) {
    const chunk = plainTextChunk(update);
    if (chunk !== undefined) return { kind: "modelled", update: chunk };
  }
  return parseAcpUpdateWithZod(update);
}

/** The full check, every frame through the schemas (exported for the equivalence test). */
export function parseAcpUpdateWithZod(update: unknown): ParsedUpdate {
  if (!isJsonObject(update)) return { kind: "invalid", error: "update: expected an object" };
  const discriminator = (update as { sessionUpdate?: unknown }).sessionUpdate;
  if (typeof discriminator !== "string" || discriminator.length === 0) {
    return { kind: "invalid", error: "sessionUpdate: expected a non-empty string" };
  }
  if (MODELLED.has(discriminator)) {
    const parsed = ModelledUpdate.safeParse(update);
    return parsed.success
      ? { kind: "modelled", update: parsed.data }
      : { kind: "invalid", error: describeIssues(parsed.error) };
  }
  return { kind: "unmodelled", raw: update as Record<string, unknown> };
}
