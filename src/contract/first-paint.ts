// The two reads the SPA makes first when it opens a session, named once for both sides: the
// SPA asks for exactly these, and the daemon's page for a session link names the same URLs
// in `<link rel="preload" as="fetch">` so they start before any script runs (ADR 0210). A
// preload is used only when URL, credentials mode and request headers all match the SPA's
// fetch, so neither side spells them itself.

/** Entries in one transcript page, the first one included. */
export const TRANSCRIPT_PAGE_SIZE = 200;

/** The credentials mode of every SPA read; `crossorigin="anonymous"` on a preload is the same. */
export const READ_CREDENTIALS = "same-origin" satisfies RequestCredentials;

/** The session detail's path (and, with a suffix, its sub-resources'). */
export function sessionApiPath(workspaceId: string, sessionId: string, suffix = ""): string {
  return `/api/workspaces/${encodeURIComponent(workspaceId)}/sessions/${encodeURIComponent(sessionId)}${suffix}`;
}

/** The newest transcript page's query, in the order the SPA writes it. */
export const FIRST_TRANSCRIPT_QUERY = { limit: TRANSCRIPT_PAGE_SIZE } as const;

/** `path?query`, with the query written as the SPA writes every query (URLSearchParams). */
export function withQuery(path: string, query: Record<string, string | number | undefined>) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${path}${search ? `?${search}` : ""}`;
}

/** What opening `/w/:ws/s/:id` fetches before anything else: the detail, then the newest page. */
export function firstPaintReads(workspaceId: string, sessionId: string): string[] {
  return [
    sessionApiPath(workspaceId, sessionId),
    withQuery(sessionApiPath(workspaceId, sessionId, "/transcript"), FIRST_TRANSCRIPT_QUERY),
  ];
}

/** The element of the daemon's first screen in a session link's page (ADR 0217). */
export const FIRST_SCREEN_ID = "first-screen";

/**
 * The cookie that tells the daemon a forced theme ("light" or "dark"), so the page it sends
 * is drawn in it before any script runs (ADR 0217); absent for the system's.
 */
export const THEME_COOKIE = "tideline-theme";
