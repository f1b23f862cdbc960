// The prompt queue (ADR 0220), CompozyOS's busy-input shapes on an ACP agent. A send while
// a turn runs waits in the database and goes, first in first out, when the session is next
// idle and active; steering (or an interrupt) puts a message first and cancels the running
// turn, since ACP has no way into a turn once it is sent. A stopped or crashed agent keeps
// the queue; it drains once the session is resumed.
import type { SessionInput } from "../../domain/session-inputs-api";
import type { SessionRecord } from "../../domain/session-recorder-api";
import { refuse } from "../session-refusal";
import type { AgentLauncher } from "./agent-launch";
import type { CancelTurn } from "./cancel-turn";
import type { HostContext, Runtime } from "./host-context";
import type { PromptAnswer, PromptRequest, PromptResult } from "./host-types";
import { promptFingerprint } from "./prompt-idempotency";
import {
  createQueueEntries,
  fencedTurn,
  GENERATION,
  interruptTurn as interrupt,
  type SteerRequest,
} from "./queue-entries";
import type { Turns } from "./turns";

/** How many messages may wait per session (CompozyOS refuses past its cap with 413). */
const QUEUE_CAP = 50;
export type PromptQueue = ReturnType<typeof createPromptQueue>;

/** Stores a send that waits and answers as CompozyOS does (202, its entry and place). */
function stage(
  ctx: HostContext,
  found: SessionRecord,
  request: PromptRequest,
  mode: SessionInput["mode"],
  extra: Partial<PromptResult>,
  targetTurnId?: string,
): PromptAnswer {
  const inputs = ctx.deps.ledger.inputs;
  const pending = inputs.pending(found.id);
  if (pending.length >= QUEUE_CAP) throw refuse.queueFull();
  const delivery = mode === "queue" ? "after_turn" : "interrupt_then_prompt";
  const status = mode === "queue" ? "queued" : mode === "steer" ? "steering" : "interrupting";
  const base = {
    status,
    mode,
    delivery,
    message_id: request.messageId,
    idempotency_key: request.idempotencyKey,
    replayed: false,
    queue_generation: GENERATION,
    ...extra,
  } as const;
  const entry = inputs.enqueue({
    session_id: found.id,
    text: request.text,
    mode,
    delivery,
    message_id: request.messageId,
    idempotency_key: request.idempotencyKey,
    target_turn_id: targetTurnId,
    fingerprint: promptFingerprint(request),
    // The position is known only once stored: the answer is written back with it.
    result: base,
  });
  const position = inputs.pending(found.id).findIndex((e) => e.id === entry.id) + 1;
  const prompt: PromptResult = {
    ...base,
    queue_entry_id: entry.id,
    ...(mode === "queue" ? { queue_position: position } : {}),
  };
  inputs.edit(found.id, entry.id, {
    text: entry.text,
    message_id: entry.message_id,
    idempotency_key: entry.idempotency_key,
    fingerprint: entry.fingerprint,
    result: prompt,
  });
  ctx.changed(found.id);
  return { status: 202, prompt };
}

/**
 * Sends the first waiting message when the session is idle and its agent is up. Called
 * on every change of a session, so a turn's end, a resume and a cancel all drain it.
 */
function drain(ctx: HostContext, turns: Turns, sessionId: string): void {
  const runtime = ctx.runtimes.get(sessionId);
  if (runtime === undefined || runtime.turn !== undefined) return;
  if (runtime.state !== "active" || runtime.process === undefined) return;
  const inputs = ctx.deps.ledger.inputs;
  const next = inputs.pending(sessionId)[0];
  if (next === undefined || !inputs.settle(sessionId, next.id, "sent")) return;
  const turn = turns.beginTurn(runtime, "prompt");
  const rows = ctx.record(sessionId, "input", () =>
    ctx.recorder.recordPrompt(sessionId, turn.id, next.text, {
      idempotency_key: next.idempotency_key,
      message_id: next.message_id,
      fingerprint: next.fingerprint,
      result: { ...next.result, new_turn_id: turn.id },
    }),
  );
  if (rows.length === 0) {
    // Not recorded: the turn is released and the next message gets its chance.
    runtime.turn = undefined;
    ctx.changed(sessionId);
    return;
  }
  turns.sendPrompt(sessionId, runtime, next.text);
}

export function createPromptQueue(
  ctx: HostContext,
  parts: { turns: Turns; launcher: AgentLauncher; cancel: CancelTurn },
) {
  const inputs = ctx.deps.ledger.inputs;
  const fenced = (sessionId: string, expected: string) => fencedTurn(ctx, sessionId, expected);
  const interruptTurn = (sessionId: string) => interrupt(ctx, parts.cancel, sessionId);

  /** The answer to a retried send that was queued: the first answer, replayed. */
  function answeredBefore(sessionId: string, request: PromptRequest): PromptAnswer | undefined {
    const earlier = inputs.byKey(sessionId, request.idempotencyKey);
    if (earlier === undefined) return undefined;
    if (earlier.fingerprint !== promptFingerprint(request)) {
      throw refuse.idempotencyConflict(request.idempotencyKey);
    }
    return { status: 202, prompt: { ...(earlier.result as PromptResult), replayed: true } };
  }

  /** Whether a new send must wait: a turn runs, or earlier sends still wait. */
  function mustWait(sessionId: string, runtime: Runtime): boolean {
    return runtime.turn !== undefined || inputs.pending(sessionId).length > 0;
  }

  /** A send that cannot go now: queued, or (steer, interrupt) put first and the turn cut. */
  function admit(
    found: SessionRecord,
    runtime: Runtime,
    request: PromptRequest,
    expected?: string,
  ): PromptAnswer {
    if (request.mode === "steer" || request.mode === "interrupt") {
      const target = fenced(found.id, expected ?? "");
      const dropped = request.mode === "interrupt" ? inputs.cancelQueued(found.id) : 0;
      const extra =
        request.mode === "interrupt"
          ? { previous_turn_id: target, canceled_queued_entries: dropped }
          : {};
      const answer = stage(ctx, found, request, request.mode, extra, target);
      interruptTurn(found.id);
      return answer;
    }
    const answer = stage(ctx, found, request, "queue", {});
    // A stopped session's queue goes once it is back: this send is what brings it back.
    if (runtime.process === undefined && runtime.state === "stopped") {
      parts.launcher.launch(found, runtime, true);
    }
    return answer;
  }

  return {
    ...createQueueEntries(ctx, parts.cancel),
    answeredBefore,
    mustWait,
    admit,

    /** `POST …/steer`: guidance that replaces the running turn, which it must name. */
    steer(sessionId: string, workspaceId: string, steer: SteerRequest): PromptAnswer {
      const found = ctx.requireSession(sessionId, workspaceId);
      if (found.archived_at !== undefined) throw refuse.archived();
      const request: PromptRequest = { ...steer, mode: "steer" };
      const admitted = ctx.reader.promptAdmission(sessionId, request.idempotencyKey);
      if (admitted !== undefined) {
        if (admitted.fingerprint !== promptFingerprint(request)) {
          throw refuse.idempotencyConflict(request.idempotencyKey);
        }
        return { status: 202, prompt: { ...(admitted.result as PromptResult), replayed: true } };
      }
      const earlier = answeredBefore(sessionId, request);
      if (earlier !== undefined) return earlier;
      const runtime = ctx.runtimes.get(sessionId);
      if (runtime === undefined) throw refuse.notInProgress();
      return admit(found, runtime, request, steer.expectedTurnId);
    },

    drain: (sessionId: string) => drain(ctx, parts.turns, sessionId),
  };
}
