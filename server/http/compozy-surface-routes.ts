// The endpoints CompozyOS's own web calls around a session view (ADR 0191): status,
// onboarding, attention counts, goal, clarifications and presence (the prompt queue is in
// queue-routes.ts). Each answers with what the reference daemon really has; its features
// that CompozyOS has and it lacks (goals, clarifications) are an honest empty answer, never a 404
// that would stop CompozyOS's client.
import { randomUUID } from "node:crypto";
import type { Hono } from "hono";
import {
  AttentionSummary,
  ClarificationList,
  DaemonStatus,
  GoalEnvelope,
  OnboardingEnvelope,
  PresenceBody,
  PresenceLease,
} from "../../src/contract/compozy-surfaces";
import type { SessionHost } from "../acp/session-host";
import type { Ledger } from "../domain/session-recorder-api";
import { invalidRequest, notFound } from "./api-error";
import { daemonStatus } from "./daemon-status";
import { parseJsonBody } from "./request-parsing";
import type { Responder } from "./respond";
import { needsYou } from "./session-catalog-query";

export type CompozySurfaceDeps = {
  host: SessionHost;
  ledger: Ledger;
  respond: Responder;
  version: string;
  startedAt: Date;
  configFile?: string | undefined;
  now?: () => Date;
};

export function mountCompozySurfaceRoutes(app: Hono, deps: CompozySurfaceDeps) {
  const { host, respond } = deps;
  const now = deps.now ?? (() => new Date());
  const SESSION = "/api/workspaces/:ws/sessions/:id";
  /** Presence leases per session: who has the session on screen (CompozyOS's attention). */
  const leases = new Map<string, Set<string>>();
  /** A tab that never says goodbye leaves its lease behind: keep the newest few. */
  const LEASES_PER_SESSION = 32;

  function requireSession(ws: string, id: string) {
    if (host.findSession(id)?.workspace_id !== ws) throw notFound("session");
  }

  app.get("/api/status", (c) => {
    const url = new URL(c.req.url);
    const status = daemonStatus({
      version: deps.version,
      startedAt: deps.startedAt,
      now: now(),
      host: url.hostname,
      port: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
      configFile: deps.configFile,
      dbSizeBytes: deps.ledger.sizeBytes(),
      sessions: host.listSessions({ archive: "include" }),
    });
    return respond(c, DaemonStatus, status);
  });

  // Tideline has no first-run flow of CompozyOS's kind: it is always complete.
  app.get("/api/onboarding", (c) =>
    respond(c, OnboardingEnvelope, { onboarding: { completed: true } }),
  );

  app.get("/api/sessions/attention-summary", (c) => {
    const byWorkspace = new Map<string, number>();
    for (const session of host.listSessions({})) {
      if (!needsYou(session)) continue;
      byWorkspace.set(session.workspace_id, (byWorkspace.get(session.workspace_id) ?? 0) + 1);
    }
    const rows = [...byWorkspace].map(([workspace_id, needs_you]) => ({
      workspace_id,
      needs_you,
      // "Finished and unseen" needs read receipts the reference daemon does not keep.
      finished: 0,
    }));
    return respond(c, AttentionSummary, {
      needs_you: rows.reduce((sum, row) => sum + row.needs_you, 0),
      finished: 0,
      by_workspace: rows,
    });
  });

  app.get(`${SESSION}/goal`, (c) => {
    requireSession(c.req.param("ws"), c.req.param("id"));
    return respond(c, GoalEnvelope, { goal: null });
  });

  app.get(`${SESSION}/clarifications`, (c) => {
    requireSession(c.req.param("ws"), c.req.param("id"));
    return respond(c, ClarificationList, { clarifications: [] });
  });

  // CompozyOS: a new lease is answered with its id; a renewal or a release with 204.
  app.post(`${SESSION}/presence`, async (c) => {
    const id = c.req.param("id");
    requireSession(c.req.param("ws"), id);
    const body = await parseJsonBody(c, PresenceBody);
    const leaseId = body.lease_id?.trim() ?? "";
    if (!body.visible && leaseId === "") {
      throw invalidRequest("a presence release needs its lease_id", { lease_id: "required" });
    }
    const held = leases.get(id) ?? new Set<string>();
    leases.set(id, held);
    if (!body.visible) {
      held.delete(leaseId);
      if (held.size === 0) leases.delete(id);
      return c.body(null, 204);
    }
    if (leaseId !== "") {
      held.add(leaseId);
      return c.body(null, 204);
    }
    const lease = `lease_${randomUUID()}`;
    held.add(lease);
    for (const oldest of held) {
      if (held.size <= LEASES_PER_SESSION) break;
      held.delete(oldest);
    }
    return respond(c, PresenceLease, { lease_id: lease });
  });
}
