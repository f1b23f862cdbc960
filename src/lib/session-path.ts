/** The SPA's address of a session: `/w/{workspace}/s/{session}`. */
export function sessionPathOf(workspaceId: string, sessionId: string): string {
  return `/w/${encodeURIComponent(workspaceId)}/s/${encodeURIComponent(sessionId)}`;
}
