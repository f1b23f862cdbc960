// Which requests a CompozyOS gateway listener authenticates with a single-use stream ticket
// (`?ticket=`) instead of the bearer credential. The same rule as its isGatewayStreamRequest
// (internal/api/httpapi/gateway_auth.go): long-lived GET streams, and the prompt POST,
// whose answer may itself be a stream.

const STREAM_SUFFIXES = ["/stream", "/catalog-stream", "/log-tail"];

function isPromptPath(path: string): boolean {
  const parts = path.replace(/^\/+|\/+$/g, "").split("/");
  return (
    parts.length === 6 &&
    parts[0] === "api" &&
    parts[1] === "workspaces" &&
    (parts[2] ?? "").trim() !== "" &&
    parts[3] === "sessions" &&
    (parts[4] ?? "").trim() !== "" &&
    parts[5] === "prompt"
  );
}

/** Go's ParseBool plus CompozyOS's empty-is-absent. */
function followRequested(value: string | null): boolean {
  return value !== null && ["1", "t", "T", "TRUE", "true", "True"].includes(value.trim());
}

export function isTicketedStreamRequest(
  method: string,
  pathname: string,
  search: URLSearchParams,
): boolean {
  const path = pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  if (method === "POST") return isPromptPath(path);
  if (method !== "GET") return false;
  if (STREAM_SUFFIXES.some((suffix) => path.endsWith(suffix))) return true;
  if (path.includes("/loop-runs/") && path.endsWith("/events")) return true;
  return (
    path.includes("/extensions/") && path.endsWith("/logs") && followRequested(search.get("follow"))
  );
}
