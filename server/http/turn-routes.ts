// A session's turns over HTTP (CompozyOS `session_routes.go`): the slash commands it
// offers now, prompt, cancel, and Compact now. Prompts and compactions are attributed
// to who asked (web, CLI or plain HTTP).
import type { Hono } from "hono";
import {
  CLIENT_ID_HEADER,
  CompactAccepted,
  CompactBody,
  DaemonCancelResult,
  DaemonPromptResultEnvelope,
  PromptBody,
  promptText,
  SessionCommands,
} from "../../src/contract/commands";
import type { DaemonSession } from "../../src/contract/session";
import { commandsRevision, type SessionHost } from "../acp/session-host";
import { notFound } from "./api-error";
import { NoQuery, parseJsonBody, parseQuery } from "./request-parsing";
import type { Responder } from "./respond";
import { EmptyBody, requestedByOf, SESSION } from "./session-request";

type TurnRouteDeps = { host: SessionHost; respond: Responder };

/** The agent's commands in CompozyOS's catalog shape, available while the session is idle. */
function commandsOf(session: DaemonSession) {
  const busy = session.activity !== undefined;
  return session.available_commands.map((command) => ({
    id: `agent:${command.name}`,
    canonical_token: `/${command.name}`,
    // CompozyOS's agent descriptor (internal/command/catalog.go agentDescriptor).
    display_name: `/${command.name}`,
    description: command.description,
    lane: "agent",
    source: { kind: "acp", id: session.agent_name, scope: "session" },
    placements: ["standalone"],
    ...(command.input ? { input_hint: command.input.hint } : {}),
    available: session.state === "active" && !busy,
    ...(session.state !== "active"
      ? { unavailable_reason: "session is not active" }
      : busy
        ? { unavailable_reason: "session is busy" }
        : {}),
  }));
}

function mountCompactRoute(app: Hono, { host, respond }: TurnRouteDeps): void {
  app.post(`${SESSION}/compact`, async (c) => {
    // 404 comes before a bad body: the refusal order of the contract starts with it.
    if (host.findSession(c.req.param("id"))?.workspace_id !== c.req.param("ws")) {
      throw notFound("session");
    }
    await parseJsonBody(c, CompactBody);
    const accepted = host.compact(
      c.req.param("id"),
      c.req.param("ws"),
      requestedByOf(c.req.header(CLIENT_ID_HEADER), c.req.header("user-agent")),
    );
    return respond(
      c,
      CompactAccepted,
      {
        session_id: accepted.sessionId,
        prompt_id: accepted.turnId,
        command: accepted.command,
        status: "accepted",
      },
      202,
    );
  });
}

export function mountTurnRoutes(app: Hono, deps: TurnRouteDeps): void {
  const { host, respond } = deps;

  app.get(`${SESSION}/commands`, (c) => {
    const session = host.getSession(c.req.param("id"), c.req.param("ws"));
    parseQuery(c, NoQuery);
    return respond(c, SessionCommands, {
      commands: commandsOf(session),
      revision: commandsRevision(session.available_commands),
    });
  });

  app.post(`${SESSION}/prompt`, async (c) => {
    host.getSession(c.req.param("id"), c.req.param("ws"));
    const body = await parseJsonBody(c, PromptBody);
    const answer = host.prompt(c.req.param("id"), c.req.param("ws"), {
      text: promptText(body),
      messageId: body.message_id,
      idempotencyKey: body.idempotency_key,
      mode: body.mode,
      expectedTurnId: body.expected_turn_id,
      requestedBy: requestedByOf(c.req.header(CLIENT_ID_HEADER), c.req.header("user-agent")),
    });
    return respond(c, DaemonPromptResultEnvelope, { prompt: answer.prompt }, answer.status);
  });

  app.post(`${SESSION}/prompt/cancel`, async (c) => {
    host.getSession(c.req.param("id"), c.req.param("ws"));
    await parseJsonBody(c, EmptyBody);
    const result = await host.cancel(c.req.param("id"), c.req.param("ws"));
    return respond(c, DaemonCancelResult, result);
  });

  mountCompactRoute(app, deps);
}
