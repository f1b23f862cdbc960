// Reads a session link's first screen through the daemon's own API, exactly as the SPA will
// read it (the same two URLs, the same answers), and draws it. Anything short of two good
// answers, or a row it cannot draw, means no first screen: the page is sent as it was.
import { firstPaintReads } from "../../src/contract/first-paint";
import { firstScreenHtml } from "../../src/first-screen/first-screen-page";

/** Answers a GET of an API path as the daemon would answer the page's own request. */
export type ApiGet = (path: string) => Promise<Response>;

export async function loadFirstScreen(
  get: ApiGet,
  workspaceId: string,
  sessionId: string,
  log: (line: string) => void,
): Promise<string | undefined> {
  const [detailPath = "", transcriptPath = ""] = firstPaintReads(workspaceId, sessionId);
  try {
    const [detail, page] = await Promise.all([get(detailPath), get(transcriptPath)]);
    if (!detail.ok || !page.ok) return undefined;
    const { session } = (await detail.json()) as { session?: { id?: unknown } };
    const { entries } = (await page.json()) as { entries?: unknown };
    if (typeof session?.id !== "string" || !Array.isArray(entries)) return undefined;
    return firstScreenHtml({ ...session, id: session.id }, entries);
  } catch (error) {
    // A picture that failed to read or draw is no reason to fail the page.
    log(
      `[http] first screen of ${sessionId} not drawn: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}
