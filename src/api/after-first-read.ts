// The stream opens beside the first transcript read (the page's preload, ADR 0210). Opened
// before that read lands, it holds no cursor, so the daemon answers with a snapshot: the
// same entries again, and a re-read of the session and usage it sets off. Waiting for the
// read lets it resume after the page instead.
import type { QueryClient, QueryKey } from "@tanstack/react-query";

/** The longest a stream waits for the first read: a hung read must not hold it closed. */
const FIRST_READ_WAIT_MS = 5_000;

/**
 * Runs `then` once the query at `queryKey` is not reading its first answer: at once if it
 * holds data, is not fetching or does not exist; else when that read lands or fails, or
 * after `waitMs`. Returns a cancel.
 */
export function afterFirstRead(
  client: QueryClient,
  queryKey: QueryKey,
  then: () => void,
  waitMs = FIRST_READ_WAIT_MS,
): () => void {
  const cache = client.getQueryCache();
  const reading = () => {
    const query = cache.find({ queryKey, exact: true });
    return query?.state.data === undefined && query?.state.fetchStatus === "fetching";
  };
  if (!reading()) {
    then();
    return () => {};
  }
  let settled = false;
  const settle = (run: boolean) => {
    if (settled) return;
    settled = true;
    unsubscribe();
    clearTimeout(timer);
    if (run) then();
  };
  const unsubscribe = cache.subscribe(() => {
    if (!reading()) settle(true);
  });
  const timer = setTimeout(() => settle(true), waitMs);
  return () => settle(false);
}
