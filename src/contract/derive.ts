// Continue and fork (ADR 0087): derive a new session from a stored one. The preview
// reports what the bounded replay would carry; the two POSTs create the session.
import { z } from "zod";

// The preview's answer is `DerivePreview` in commands.ts (CompozyOS's October release).
export { DerivePreview } from "./commands";

const SessionToolsFlag = z.enum(["true", "false"]).transform((value) => value === "true");

export const DerivePreviewQuery = z.strictObject({
  /** The tool policy the new session would have (it decides the history-tool pointer). */
  session_tools: SessionToolsFlag.optional(),
});

/** `POST …/continue` and `POST …/fork` bodies. */
export const DeriveSessionBody = z.strictObject({
  agent_name: z.string().min(1).max(200).optional(),
  name: z.string().trim().min(1).max(200).optional(),
  /** false: the new session's agent is offered no session tools. */
  session_tools: z.boolean().optional(),
});
export type DeriveSessionBody = z.infer<typeof DeriveSessionBody>;
