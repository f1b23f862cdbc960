// Who calls the session tools: each agent session is handed its own secret in
// `session/new`, and the bearer token a request presents names the caller (its session
// and workspace). A new secret replaces the session's old one; a deleted session's is dead.
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { SessionStore } from "../domain/session-recorder-api";

export type Caller = { sessionId: string; workspaceId: string; secret: Buffer };

export function createToolCallers(store: SessionStore) {
  const callers = new Map<string, Caller>();
  return {
    /** A new secret for `sessionId`'s agent: an old agent's secret stops working. */
    issue(sessionId: string, workspaceId: string): string {
      const secret = randomBytes(32).toString("base64url");
      callers.set(sessionId, { sessionId, workspaceId, secret: Buffer.from(secret) });
      return secret;
    },

    revoke(sessionId: string): void {
      callers.delete(sessionId);
    },

    /** The caller whose secret the request's bearer token is, if any. */
    callerOf(request: IncomingMessage): Caller | undefined {
      const header = request.headers.authorization ?? "";
      const match = /^Bearer ([A-Za-z0-9_-]{43})$/.exec(header);
      if (match?.[1] === undefined) return undefined;
      const given = Buffer.from(match[1]);
      for (const caller of callers.values()) {
        if (caller.secret.length === given.length && timingSafeEqual(caller.secret, given)) {
          // A deleted session's secret is dead even if a revoke was missed.
          return store.getSession(caller.sessionId) === undefined ? undefined : caller;
        }
      }
      return undefined;
    },
  };
}
