// Workspaces, sessions and turns (CompozyOS `internal/api/httpapi/session_routes.go`):
// parse with the contract → call the host → send. The route groups are
// session-list-routes.ts (workspaces, the list, create), session-record-routes.ts (one
// session) and turn-routes.ts (commands, prompt, cancel, compact), registered in that order.
import type { Hono } from "hono";
import type { SessionHost } from "../acp/session-host";
import type { SessionStore } from "../domain/session-recorder-api";
import type { Responder } from "./respond";
import { mountSessionListRoutes } from "./session-list-routes";
import { mountSessionRecordRoutes } from "./session-record-routes";
import { mountTurnRoutes } from "./turn-routes";

export function mountSessionRoutes(
  app: Hono,
  deps: { host: SessionHost; store: SessionStore; respond: Responder },
): void {
  mountSessionListRoutes(app, deps);
  mountSessionRecordRoutes(app, deps);
  mountTurnRoutes(app, deps);
}
