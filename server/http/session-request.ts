// What the session routes read off a request besides its schema: the session's path, who
// asked (attribution, not authentication), a display name as stored, and the empty body of
// the bodiless writes.
import { CompactBody } from "../../src/contract/commands";
import { cleanDisplayText } from "../domain/display-text";
import type { RequestedBy } from "../domain/session-recorder-api";
import { invalidRequest } from "./api-error";

/** One session of one workspace. */
export const SESSION = "/api/workspaces/:ws/sessions/:id";

/** The body of stop, archive, unarchive and cancel: none, or `{}`. */
export const EmptyBody = CompactBody;

/** Attribution of Compact now (October release): not authentication. */
export function requestedByOf(
  clientId: string | undefined,
  userAgent: string | undefined,
): RequestedBy {
  if (clientId?.startsWith("web-")) return "web";
  if (userAgent?.startsWith("tideline-cli") || userAgent?.startsWith("compozy-cli")) return "cli";
  return "http";
}

/** A name as stored: controls and bidi overrides removed; nothing printable left is a 400. */
export function displayName(name: string): string {
  const clean = cleanDisplayText(name);
  if (clean === "") throw invalidRequest("name has no printable characters", { name: "empty" });
  return clean;
}
