// The raw tap's handlers: what each classified line of the agent's stdout does, given what
// the daemon sent (request ids and methods) and which ACP session the agent owns. Updates
// go straight to the recorder's events, in receive order; responses and permission
// requests go on to the SDK; foreign, stray and malformed frames are kept as invalid.
import { methods } from "@agentclientprotocol/sdk/unstable";
import {
  type AgentFrame,
  classifyFrame,
  describeRpcError,
  isObject,
  requestIdKey,
} from "./agent-frames";
import type { AgentEvents } from "./agent-process";

/** The updates of a `session/load` replay that are recorded (see `onUpdate`). */
export const REPLAY_RECORDED_UPDATES: ReadonlySet<string> = new Set([
  "compaction_update",
  "compaction_summary_chunk",
  "available_commands_update",
]);

/** Updates held while `session/new` is unanswered, at most. */
const EARLY_LIMIT = 1000;

export type AgentTap = ReturnType<typeof createAgentTap>;

export function createAgentTap(io: {
  events: AgentEvents;
  /** Hands a line on to the SDK. */
  toSdk(line: string): void;
  /** Answers a request the SDK must not see, so the agent is not left waiting. */
  refuseRequest(id: unknown, reason: string): void;
}) {
  const { events } = io;
  // Methods of requests we sent, by JSON-RPC id, to recognise their answers in the tap.
  const sentMethods = new Map<string, string>();
  let replaying = false;
  // The ACP session this agent owns: from the session/new answer (at its line) or the
  // session/load request. A frame naming another session is applied to nothing.
  let ownedSession: string | undefined;
  /** The session id a pending `session/load` asked for. */
  let loading: string | undefined;
  // Updates that arrive while session/new is unanswered: an agent may announce its new
  // session (commands, usage) before the answer line that names it. They are decided, in
  // order, at that line.
  let early: { line: string; update: unknown; sessionId: string }[] = [];

  /** Why a frame naming `sessionId` is not this agent's, or undefined when it is. */
  function foreignSession(sessionId: unknown): string | undefined {
    if (typeof sessionId !== "string") return "frame without a string params.sessionId";
    if (ownedSession === undefined) {
      return `frame for session ${JSON.stringify(sessionId)} before the agent's session was established`;
    }
    if (sessionId !== ownedSession) {
      return `frame for session ${JSON.stringify(sessionId)}, not this agent's session ${JSON.stringify(ownedSession)}`;
    }
    return undefined;
  }

  function settleEarly() {
    const waiting = early;
    early = [];
    for (const frame of waiting) {
      const foreign = foreignSession(frame.sessionId);
      if (foreign === undefined) events.update(frame.update, frame.line);
      else events.invalidFrame(frame.line, foreign);
    }
  }

  function onReplayedUpdate(params: unknown, line: string) {
    // A replay repeats what the ledger already holds (message chunks, tools, a bad frame
    // included), except what follows patch semantics: a compaction replayed with a new
    // summary, or first seen in the replay, and the command list. The recorder's
    // compaction rules then record only what changed (ACP RFD, "History replay").
    const update = isObject(params) ? params.update : undefined;
    if (isObject(update) && REPLAY_RECORDED_UPDATES.has(String(update.sessionUpdate))) {
      events.update(update, line, true);
    }
  }

  function onUpdate(params: unknown, line: string) {
    if (replaying) return onReplayedUpdate(params, line);
    if (!isObject(params) || !("update" in params)) {
      return events.invalidFrame(line, "session/update without params.update");
    }
    const target = params.sessionId;
    if (
      ownedSession === undefined &&
      typeof target === "string" &&
      early.length < EARLY_LIMIT &&
      [...sentMethods.values()].includes(methods.agent.session.new)
    ) {
      early.push({ line, update: params.update, sessionId: target });
      return;
    }
    const foreign = foreignSession(target);
    if (foreign !== undefined) return events.invalidFrame(line, foreign);
    events.update(params.update, line);
  }

  function onCall(frame: Extract<AgentFrame, { kind: "call" }>, line: string) {
    const target = isObject(frame.params) ? frame.params.sessionId : undefined;
    const foreign = target === undefined ? undefined : foreignSession(target);
    if (foreign !== undefined) {
      events.invalidFrame(line, foreign);
      if (frame.id !== undefined) io.refuseRequest(frame.id, foreign);
      return;
    }
    if (frame.id === undefined && frame.method.startsWith("_")) {
      // The SDK would drop it; the ledger keeps it, quietly.
      return events.extension(frame.method, frame.params);
    }
    io.toSdk(line);
  }

  function onResponse(frame: Extract<AgentFrame, { kind: "response" }>, line: string) {
    const { message } = frame;
    const method = sentMethods.get(frame.key);
    if (method === undefined) {
      // The SDK would only log and drop it; the ledger keeps what the agent said.
      return events.invalidFrame(line, "JSON-RPC response to no request the daemon sent");
    }
    sentMethods.delete(frame.key);
    if (method === methods.agent.session.load) {
      replaying = false;
      if (!("error" in message) && loading !== undefined) ownedSession = loading;
      settleEarly();
    }
    if (method === methods.agent.session.new) {
      const sessionId = isObject(message.result) ? message.result.sessionId : undefined;
      if (typeof sessionId === "string") ownedSession = sessionId;
      settleEarly();
    }
    if (method === methods.agent.session.prompt) {
      events.promptAnswered(
        "error" in message
          ? { ok: false, error: describeRpcError(message.error) }
          : { ok: true, result: isObject(message.result) ? message.result : {} },
      );
    }
    io.toSdk(line);
  }

  return {
    /** One line of the agent's stdout, in receive order. */
    onLine(line: string) {
      const frame = classifyFrame(line, methods.client.session.update);
      switch (frame.kind) {
        case "blank":
          return;
        case "invalid":
          return events.invalidFrame(line, frame.reason);
        case "update":
          return onUpdate(frame.params, line);
        case "call":
          return onCall(frame, line);
        case "response":
          return onResponse(frame, line);
      }
    },

    /** One line the SDK wrote to the agent: a request's id names its answer's method. */
    noteOutgoing(line: string): void {
      try {
        const message: unknown = JSON.parse(line);
        if (isObject(message) && typeof message.method === "string") {
          const key = requestIdKey(message.id);
          if (key !== undefined) sentMethods.set(key, message.method);
        }
      } catch {
        // Our own SDK wrote it; a parse failure here can only be a partial line.
      }
    },

    /**
     * A `session/load` is about to be sent. The tap clears `replaying` at the answer's
     * line; an agent that never answers stays muted until it is stopped, so a late replay
     * is never recorded as new. The loaded session is this agent's from its answer on.
     */
    beginLoad(acpSessionId: string): void {
      replaying = true;
      loading = acpSessionId;
    },

    settleEarly,
  };
}
