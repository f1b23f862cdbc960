// The upstream credential a forwarded request carries: the configured bearer, or on a
// gateway's stream request (which cannot send headers from EventSource) a freshly minted
// ticket in the query. A refused mint is answered to the browser as the upstream said it.
import { forwardedQuery } from "./forwarded-headers";
import { isTicketedStreamRequest } from "./stream-requests";
import type { StreamTickets } from "./stream-tickets";
import type { UpstreamTarget } from "./upstream-target";

/** Sets the bearer in `headers`, or returns the query with a ticket; or the refusal. */
export async function authenticate(
  upstream: { target: UpstreamTarget; tickets: StreamTickets },
  request: { method: string; url: URL; headers: Record<string, string>; signal: AbortSignal },
): Promise<{ query: string } | { refused: Response }> {
  const { target, tickets } = upstream;
  const { method, url, headers } = request;
  const query = forwardedQuery(url.search);
  const bearer = () => {
    if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
    return { query };
  };
  if (!isTicketedStreamRequest(method, url.pathname, url.searchParams)) return bearer();
  const auth = await tickets.authorize(request.signal);
  if (auth.kind === "bearer") return bearer();
  if (auth.kind === "refused") {
    return {
      refused: new Response(auth.body, {
        status: auth.status,
        headers: {
          "content-type": auth.contentType,
          ...(auth.retryAfter === undefined ? {} : { "retry-after": String(auth.retryAfter) }),
        },
      }),
    };
  }
  const ticket = `ticket=${encodeURIComponent(auth.ticket)}`;
  return { query: query === "" ? ticket : `${query}&${ticket}` };
}
