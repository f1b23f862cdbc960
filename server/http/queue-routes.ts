// The prompt queue and steering (ADR 0220), at CompozyOS's paths and in its shapes
// (`internal/api/httpapi/session_routes.go`): list, edit and withdraw a queued message,
// send one now in place of the running turn, or steer the running turn with new words.
import type { Context, Hono } from "hono";
import { DaemonPromptResultEnvelope } from "../../src/contract/commands";
import {
  QueuedInputEnvelope,
  QueuedInputList,
  ReplaceQueuedInputBody,
  SteerBody,
} from "../../src/contract/compozy-surfaces";
import type { SessionHost } from "../acp/session-host";
import { invalidRequest, notFound } from "./api-error";
import { NoQuery, parseJsonBody, parseQuery } from "./request-parsing";
import type { Responder } from "./respond";

const SESSION = "/api/workspaces/:ws/sessions/:id";
const ENTRY = `${SESSION}/prompt/queue/:entry`;

export function mountQueueRoutes(app: Hono, deps: { host: SessionHost; respond: Responder }) {
  const { host, respond } = deps;

  /** 404 for a session not in this workspace comes before anything about the body. */
  function target(c: Context) {
    const ws = c.req.param("ws") ?? "";
    const id = c.req.param("id") ?? "";
    if (host.findSession(id)?.workspace_id !== ws) throw notFound("session");
    return { ws, id };
  }

  function entryOf(c: Context): string {
    const entry = (c.req.param("entry") ?? "").trim();
    if (entry === "")
      throw invalidRequest("queue entry id is required", { queue_entry_id: "required" });
    return entry;
  }

  const identity = (body: { text: string; message_id: string; idempotency_key: string }) => ({
    text: body.text,
    messageId: body.message_id,
    idempotencyKey: body.idempotency_key,
  });

  app.get(`${SESSION}/prompt/queue`, (c) => {
    const { ws, id } = target(c);
    parseQuery(c, NoQuery);
    return respond(c, QueuedInputList, { inputs: host.queue.list(id, ws) });
  });

  app.put(ENTRY, async (c) => {
    const { ws, id } = target(c);
    const entry = entryOf(c);
    const body = await parseJsonBody(c, ReplaceQueuedInputBody);
    const input = host.queue.replace(id, ws, entry, identity(body));
    return respond(c, QueuedInputEnvelope, { input });
  });

  app.delete(ENTRY, (c) => {
    const { ws, id } = target(c);
    const entry = entryOf(c);
    parseQuery(c, NoQuery);
    const prompt = host.queue.withdraw(id, ws, entry);
    return respond(c, DaemonPromptResultEnvelope, { prompt });
  });

  app.post(`${ENTRY}/steer`, async (c) => {
    const { ws, id } = target(c);
    const entry = entryOf(c);
    const body = await parseJsonBody(c, SteerBody);
    const answer = host.queue.promote(id, ws, entry, {
      ...identity(body),
      expectedTurnId: body.expected_turn_id,
    });
    return respond(c, DaemonPromptResultEnvelope, { prompt: answer.prompt }, answer.status);
  });

  app.post(`${SESSION}/steer`, async (c) => {
    const { ws, id } = target(c);
    const body = await parseJsonBody(c, SteerBody);
    const answer = host.queue.steer(id, ws, {
      ...identity(body),
      expectedTurnId: body.expected_turn_id,
    });
    return respond(c, DaemonPromptResultEnvelope, { prompt: answer.prompt }, answer.status);
  });
}
