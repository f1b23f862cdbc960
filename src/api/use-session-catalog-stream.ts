// Follows the session catalog stream while mounted and says whether it is live, so the
// list can poll only when the stream is not there (a daemon without it, a lost connection).
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { type CatalogStreamStatus, openCatalogStream } from "./session-catalog-stream";
import type { EventSourceFactory } from "./session-stream";

/** How often the list is re-read while the catalog stream is not live. */
export const CATALOG_FALLBACK_POLL_MS = 5_000;

export function useSessionCatalogStream(createSource?: EventSourceFactory): CatalogStreamStatus {
  const client = useQueryClient();
  const [status, setStatus] = useState<CatalogStreamStatus>("stale");
  useEffect(() => {
    if (!createSource && typeof EventSource === "undefined") return;
    return openCatalogStream(client, setStatus, createSource);
  }, [client, createSource]);
  return status;
}
