// Warm start (ADR 0212): once listening, and before it says so, the daemon sends itself over
// its own socket the reads a browser opening the newest session makes first. The first real
// request then finds V8's code for the whole path compiled (Node's HTTP parser, the
// adapter, Hono's router, the routes), zod's parsers built and SQLite's page cache holding
// the newest page: it is answered in about the time of any later one. Nothing answered
// here is kept, and no ledger row is written.

import { firstPaintReads } from "../../src/contract/first-paint";
import type { SessionStore } from "../domain/session-recorder-api";

/** `fetch` bound to the daemon's own address (or, in tests, the app's `request`). */
export type Fetcher = (path: string, init: RequestInit) => Response | Promise<Response>;

/** Passes over the reads: the first compiles, the later ones let V8 optimize the hot parts. */
export const WARM_UP_PASSES = 3;

/** The paths warmed: the newest session's first reads, its usage, and the session list. */
export function warmUpPaths(store: SessionStore): string[] {
  const newest = store.pageSessions({ archive: "exclude" }, { offset: 0, limit: 1 }).records[0];
  // With no session yet, an unknown one still runs routing, parsing and the 404 envelope.
  const ws = newest?.workspace_id ?? "ws_warm";
  const id = newest?.id ?? "ses_warm";
  const [detail, transcript] = firstPaintReads(ws, id);
  return [
    `/w/${ws}/s/${id}`,
    detail ?? "",
    transcript ?? "",
    `${detail}/usage`,
    `${detail}/usage/turns`,
    "/api/sessions?limit=100",
  ];
}

/** Sends the warm-up reads; a failure only means a colder first request, so it is logged. */
export async function warmReadPath(
  send: Fetcher,
  store: SessionStore,
  options: { token?: string | undefined; log: (line: string) => void },
): Promise<void> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  try {
    const paths = warmUpPaths(store);
    for (let pass = 0; pass < WARM_UP_PASSES; pass += 1) {
      for (const path of paths) {
        const response = await send(path, { headers });
        await response.arrayBuffer();
      }
    }
  } catch (error) {
    options.log(`tideline: warm-up skipped: ${String(error)}`);
  }
}

/** Where the daemon reaches itself: loopback for a wildcard bind, else the bound address. */
export function selfBase(host: string, port: number): string {
  if (host === "0.0.0.0") return `http://127.0.0.1:${port}`;
  if (host === "::") return `http://[::1]:${port}`;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
