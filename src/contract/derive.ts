// Continue and fork (ADR 0087): derive a new session from a stored one. The preview
// reports what the bounded replay would carry; the two POSTs create the session.
import { z } from "./zod";

// The preview's answer is `DerivePreview` in commands.ts (CompozyOS's October release).
export { DerivePreview } from "./commands";

const SessionToolsFlag = z.pipe(
  z.enum(["true", "false"]),
  z.transform((value) => value === "true"),
);

export const DerivePreviewQuery = z.strictObject({
  /** The tool policy the new session would have (it decides the history-tool pointer). */
  session_tools: z.optional(SessionToolsFlag),
});

/** `POST …/continue` and `POST …/fork` bodies. */
export const DeriveSessionBody = z.strictObject({
  agent_name: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
  name: z.optional(z.string().check(z.trim()).check(z.minLength(1)).check(z.maxLength(200))),
  /** false: the new session's agent is offered no session tools. */
  session_tools: z.optional(z.boolean()),
});
export type DeriveSessionBody = z.infer<typeof DeriveSessionBody>;
