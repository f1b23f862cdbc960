// The address of a session's live stream, as the SPA asks for it.
import { APPEND_QUERY } from "../contract/stream";
import { apiToken, apiUrl, isOwnOrigin, sessionPath } from "./http";
import type { SessionRef } from "./session-queries";
import type { StreamResume } from "./transcript-cache";

/**
 * `…/stream` in transcript frames, resuming after the cursor behind the fence of the
 * history it was read from (without the fence CompozyOS answers every reconnect with a
 * full `fence_missing` snapshot). EventSource cannot send headers, so the token rides along.
 * It asks for append frames (ADR 0200); CompozyOS ignores the parameter.
 */
export function streamUrl(
  ref: SessionRef,
  resume: StreamResume | undefined,
  token = apiToken(),
): string {
  const query = {
    frames: "transcript",
    after_sequence: resume && resume.afterSequence > 0 ? resume.afterSequence : undefined,
    epoch: resume?.epoch,
    generation: resume?.generation,
    [APPEND_QUERY]: "1",
  };
  const path = sessionPath(ref.workspaceId, ref.sessionId, "/stream");
  // The token rides only to the page's own origin (ADR 0172).
  return isOwnOrigin(apiUrl(path))
    ? apiUrl(path, { ...query, access_token: token })
    : apiUrl(path, query);
}
