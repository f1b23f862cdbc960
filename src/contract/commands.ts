// Prompt, cancel and Compact now: request bodies and their 202 answers.
import { z } from "zod";
import { Id } from "./primitives";

export const PROMPT_MAX_CHARS = 100_000;

export const PromptBody = z.strictObject({
  text: z.string().min(1).max(PROMPT_MAX_CHARS),
});
export type PromptBody = z.infer<typeof PromptBody>;

export const PromptAccepted = z.object({
  session_id: Id,
  prompt_id: Id,
  status: z.literal("accepted"),
});
export type PromptAccepted = z.infer<typeof PromptAccepted>;

export const CancelAccepted = z.object({ session_id: Id, prompt_id: Id });
export type CancelAccepted = z.infer<typeof CancelAccepted>;

export const COMPACTION_COMMANDS = ["compact", "compress"] as const;
export const CompactionCommand = z.enum(COMPACTION_COMMANDS);
export type CompactionCommand = z.infer<typeof CompactionCommand>;

/** Compact now takes an empty object; anything else is an unknown field. */
export const CompactBody = z.strictObject({});
export type CompactBody = z.infer<typeof CompactBody>;

export const CompactAccepted = z.object({
  session_id: Id,
  prompt_id: Id,
  command: CompactionCommand,
  status: z.literal("accepted"),
});
export type CompactAccepted = z.infer<typeof CompactAccepted>;

/** The header the SPA sends with Compact now, for attribution (`web-<random>`). */
export const CLIENT_ID_HEADER = "X-Compozy-Client-ID";

/**
 * Which compaction command a session advertises, if any: a name that is exactly
 * `compact` or `compress` after trimming, `compact` preferred. `/compact`, `Compact`
 * and `compact-now` do not count. Shared by the daemon (Compact now) and the SPA
 * (whether to show the button), so the two can never disagree.
 */
export function chooseCompactionCommand(
  commands: ReadonlyArray<{ name: string }>,
): CompactionCommand | undefined {
  const names = new Set(commands.map((command) => command.name.trim()));
  return COMPACTION_COMMANDS.find((name) => names.has(name));
}
