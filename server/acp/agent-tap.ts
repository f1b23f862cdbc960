// The raw tap's handlers: what each classified line of the agent's stdout does, given what
// the daemon sent (request ids and methods, sent-requests.ts) and which ACP session the
// agent owns (session-ownership.ts). Updates go straight to the recorder's events, in
// receive order; responses and permission requests go on to the SDK; foreign, stray and
// malformed frames are kept as invalid.
import { methods } from "@agentclientprotocol/sdk/unstable";
import { type AgentFrame, classifyFrame, describeRpcError, isObject } from "./agent-frames";
import type { AgentEvents } from "./agent-process";
import { createSentRequests, type SentRequests } from "./sent-requests";
import { createSessionOwnership, type SessionOwnership } from "./session-ownership";

/** The updates of a `session/load` replay that are recorded (see `onUpdate`). */
const REPLAY_RECORDED_UPDATES: ReadonlySet<string> = new Set([
  "compaction_update",
  "compaction_summary_chunk",
  "available_commands_update",
]);

interface TapIo {
  events: AgentEvents;
  /** Hands a line on to the SDK. */
  toSdk(line: string): void;
  /** Answers a request the SDK must not see, so the agent is not left waiting. */
  refuseRequest(id: unknown, reason: string): void;
}

interface Tap {
  io: TapIo;
  sent: SentRequests;
  owner: SessionOwnership;
}

function onReplayedUpdate({ io }: Tap, params: unknown, line: string) {
  // A replay repeats what the ledger already holds (message chunks, tools, a bad frame
  // included), except what follows patch semantics: a compaction replayed with a new
  // summary, or first seen in the replay, and the command list. The recorder's
  // compaction rules then record only what changed (ACP RFD, "History replay").
  const update = isObject(params) ? params.update : undefined;
  if (isObject(update) && REPLAY_RECORDED_UPDATES.has(String(update.sessionUpdate))) {
    io.events.update(update, line, true);
  }
}

function onUpdate(tap: Tap, params: unknown, line: string) {
  const { io, owner, sent } = tap;
  if (owner.replaying()) return onReplayedUpdate(tap, params, line);
  if (!isObject(params) || !("update" in params)) {
    return io.events.invalidFrame(line, "session/update without params.update");
  }
  const target = params.sessionId;
  const creating = () => sent.pending(methods.agent.session.new);
  if (owner.holdEarly(line, params.update, target, creating)) return;
  const foreign = owner.foreignSession(target);
  if (foreign !== undefined) return io.events.invalidFrame(line, foreign);
  io.events.update(params.update, line);
}

function onCall({ io, owner }: Tap, frame: Extract<AgentFrame, { kind: "call" }>, line: string) {
  const target = isObject(frame.params) ? frame.params.sessionId : undefined;
  const foreign = target === undefined ? undefined : owner.foreignSession(target);
  if (foreign !== undefined) {
    io.events.invalidFrame(line, foreign);
    if (frame.id !== undefined) io.refuseRequest(frame.id, foreign);
    return;
  }
  if (frame.id === undefined && frame.method.startsWith("_")) {
    // The SDK would drop it; the ledger keeps it, quietly.
    return io.events.extension(frame.method, frame.params);
  }
  io.toSdk(line);
}

function onResponse(tap: Tap, frame: Extract<AgentFrame, { kind: "response" }>, line: string) {
  const { io, owner } = tap;
  const { message } = frame;
  const method = tap.sent.take(frame.key);
  if (method === undefined) {
    // The SDK would only log and drop it; the ledger keeps what the agent said.
    return io.events.invalidFrame(line, "JSON-RPC response to no request the daemon sent");
  }
  if (method === methods.agent.session.load) owner.loadAnswered("error" in message);
  if (method === methods.agent.session.new) {
    owner.created(isObject(message.result) ? message.result.sessionId : undefined);
  }
  if (method === methods.agent.session.prompt) {
    io.events.promptAnswered(
      "error" in message
        ? { ok: false, error: describeRpcError(message.error) }
        : { ok: true, result: isObject(message.result) ? message.result : {} },
    );
  }
  io.toSdk(line);
}

export function createAgentTap(io: TapIo) {
  const tap: Tap = { io, sent: createSentRequests(), owner: createSessionOwnership(io.events) };
  return {
    /** One line of the agent's stdout, in receive order. */
    onLine(line: string) {
      const frame = classifyFrame(line, methods.client.session.update);
      switch (frame.kind) {
        case "blank":
          return;
        case "invalid":
          return io.events.invalidFrame(line, frame.reason);
        case "update":
          return onUpdate(tap, frame.params, line);
        case "call":
          return onCall(tap, frame, line);
        case "response":
          return onResponse(tap, frame, line);
      }
    },

    /** One line the SDK wrote to the agent: a request's id names its answer's method. */
    noteOutgoing: tap.sent.noteOutgoing,

    /** A `session/load` is about to be sent (see SessionOwnership.beginLoad). */
    beginLoad: tap.owner.beginLoad,

    settleEarly: tap.owner.settleEarly,
  };
}
