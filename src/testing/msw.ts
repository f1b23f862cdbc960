// The daemon's HTTP side for the SPA's tests, answered by MSW (ADR 0149). A test file calls
// `mockDaemon()` once; each test then says what the daemon answers with `daemon.use(http…)`.
// A request no handler answers fails the test that made it, so nothing is answered by luck.
import type { RequestHandler } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, onTestFinished } from "vitest";

export const daemon = setupServer();

/** What the page asked the daemon during the current test, in order; bodies still unread. */
const requests: Request[] = [];
const unhandled: string[] = [];

daemon.events.on("request:start", ({ request }) => {
  requests.push(request.clone());
});
// MSW hands its life-cycle events a tee'd copy of each mocked answer, and a tee's branch
// finishes cancelling only once both have: drop the copy, or a page that cancels a body it
// does not read (a send answered with a stream) waits forever, as no daemon would make it.
daemon.events.on("response:mocked", ({ response }) => {
  void response.body?.cancel();
});

/**
 * Starts MSW for this test file. `defaults` answer every test (a test's own `daemon.use`
 * handlers come first); they are restored after each test. Returns the current test's
 * requests (cloned, so a test can read a body the page sent).
 */
export function mockDaemon(...defaults: RequestHandler[]): readonly Request[] {
  beforeAll(() =>
    daemon.listen({
      // The "error" strategy (the fetch fails), and the test fails too: see beforeEach.
      onUnhandledRequest(request, print) {
        unhandled.push(`${request.method} ${pathOf(request)}`);
        print.error();
      },
    }),
  );
  beforeEach(() => {
    daemon.use(...defaults);
    // After every afterEach (the DOM cleanup included), so failing here skips none of them.
    onTestFinished(() => {
      const missed = unhandled.splice(0);
      if (missed.length > 0) throw new Error(`No handler answered: ${missed.join(", ")}`);
    });
  });
  afterEach(() => {
    daemon.resetHandlers();
    requests.length = 0;
  });
  afterAll(() => daemon.close());
  return requests;
}

/** A request's path and query, as the SPA wrote it (`/api/…?limit=50`). */
export function pathOf(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/** The requests to `path` (query ignored), optionally of one method. */
export function requestsTo(
  requests: readonly Request[],
  path: string,
  method?: string,
): readonly Request[] {
  return requests.filter(
    (request) =>
      new URL(request.url).pathname === path && (method === undefined || request.method === method),
  );
}
