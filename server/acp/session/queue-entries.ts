// A queued message's own actions (ADR 0220): list, edit, withdraw, and "send now" (steer
// with it in place of the running turn), with the checks the queue's routes share.
import type { QueuedInput } from "../../../src/contract/compozy-surfaces";
import type { SessionInput } from "../../domain/session-inputs-api";
import { refuse } from "../session-refusal";
import type { CancelTurn } from "./cancel-turn";
import type { HostContext } from "./host-context";
import type { PromptAnswer, PromptResult } from "./host-types";
import { promptFingerprint } from "./prompt-idempotency";

/** CompozyOS bumps a generation when it clears a queue; this daemon keeps one per session. */
export const GENERATION = 1;

export type QueueEdit = { text: string; messageId: string; idempotencyKey: string };
export type SteerRequest = QueueEdit & { expectedTurnId: string };

function payloadOf(input: SessionInput): QueuedInput {
  return {
    id: input.id,
    session_id: input.session_id,
    text: input.text,
    mode: input.mode,
    delivery: input.delivery,
    status: input.status,
    enqueued_at: input.enqueued_at,
    queue_generation: GENERATION,
    message_id: input.message_id,
    idempotency_key: input.idempotency_key,
    ...(input.target_turn_id === undefined ? {} : { target_turn_id: input.target_turn_id }),
  };
}

/** The running turn, when it is the one the request names. */
export function fencedTurn(ctx: HostContext, sessionId: string, expectedTurnId: string): string {
  const turn = ctx.runtimes.get(sessionId)?.turn;
  if (turn === undefined) throw refuse.notInProgress();
  if (turn.id !== expectedTurnId.trim()) throw refuse.turnMismatch(expectedTurnId);
  return turn.id;
}

function waiting(ctx: HostContext, sessionId: string, entryId: string): SessionInput {
  const entry = ctx.deps.ledger.inputs.get(sessionId, entryId);
  if (entry === undefined) throw refuse.notFound("queue entry");
  if (entry.status !== "queued") throw refuse.notQueued(entryId);
  return entry;
}

/** A key already bound to another send (sent, queued or withdrawn) is a conflict. */
function claimKey(
  ctx: HostContext,
  sessionId: string,
  key: string,
  fingerprint: string,
  entryId?: string,
) {
  const admitted = ctx.reader.promptAdmission(sessionId, key);
  const queued = ctx.deps.ledger.inputs.byKey(sessionId, key);
  const other = queued !== undefined && queued.id !== entryId ? queued : undefined;
  if (admitted !== undefined || (other !== undefined && other.fingerprint !== fingerprint)) {
    throw refuse.idempotencyConflict(key);
  }
}

export function interruptTurn(ctx: HostContext, cancel: CancelTurn, sessionId: string) {
  void cancel(sessionId).catch((error: unknown) => {
    ctx.log(`[${sessionId}] could not interrupt the turn: ${String(error)}`);
  });
}

export function createQueueEntries(ctx: HostContext, cancel: CancelTurn) {
  const inputs = ctx.deps.ledger.inputs;
  return {
    list(sessionId: string, workspaceId: string): QueuedInput[] {
      ctx.requireSession(sessionId, workspaceId);
      return inputs.pending(sessionId).map(payloadOf);
    },

    replace(sessionId: string, workspaceId: string, entryId: string, edit: QueueEdit) {
      ctx.requireSession(sessionId, workspaceId);
      const entry = waiting(ctx, sessionId, entryId);
      const request = { ...edit, mode: entry.mode };
      const fingerprint = promptFingerprint(request);
      if (edit.idempotencyKey === entry.idempotency_key) {
        if (fingerprint === entry.fingerprint) return payloadOf(entry);
        throw refuse.idempotencyConflict(edit.idempotencyKey);
      }
      claimKey(ctx, sessionId, edit.idempotencyKey, fingerprint, entryId);
      const result = { ...entry.result, message_id: edit.messageId };
      const changed = inputs.edit(sessionId, entryId, {
        text: edit.text,
        message_id: edit.messageId,
        idempotency_key: edit.idempotencyKey,
        fingerprint,
        result: { ...result, idempotency_key: edit.idempotencyKey },
      });
      if (changed === undefined) throw refuse.notQueued(entryId);
      ctx.changed(sessionId);
      return payloadOf(changed);
    },

    withdraw(sessionId: string, workspaceId: string, entryId: string): PromptResult {
      ctx.requireSession(sessionId, workspaceId);
      const entry = waiting(ctx, sessionId, entryId);
      if (!inputs.settle(sessionId, entryId, "canceled")) throw refuse.notQueued(entryId);
      ctx.changed(sessionId);
      return {
        status: "canceled",
        mode: entry.mode,
        delivery: "none",
        message_id: entry.message_id,
        idempotency_key: entry.idempotency_key,
        replayed: false,
        queue_entry_id: entry.id,
        queue_generation: GENERATION,
      };
    },

    /** "Send now": the queued message replaces the running turn (CompozyOS's promote). */
    promote(sessionId: string, workspaceId: string, entryId: string, steer: SteerRequest) {
      ctx.requireSession(sessionId, workspaceId);
      const entry = waiting(ctx, sessionId, entryId);
      const target = fencedTurn(ctx, sessionId, steer.expectedTurnId);
      const fingerprint = promptFingerprint({ ...steer, mode: "steer" });
      if (steer.idempotencyKey !== entry.idempotency_key) {
        claimKey(ctx, sessionId, steer.idempotencyKey, fingerprint, entryId);
      }
      const prompt: PromptResult = {
        status: "steering",
        mode: "steer",
        delivery: "interrupt_then_prompt",
        message_id: steer.messageId,
        idempotency_key: steer.idempotencyKey,
        replayed: false,
        queue_entry_id: entry.id,
        queue_generation: GENERATION,
      };
      const edit = {
        text: steer.text,
        message_id: steer.messageId,
        idempotency_key: steer.idempotencyKey,
      };
      if (inputs.promote(sessionId, entryId, target, { ...edit, fingerprint, result: prompt })) {
        interruptTurn(ctx, cancel, sessionId);
        ctx.changed(sessionId);
        return { status: 202, prompt } satisfies PromptAnswer;
      }
      throw refuse.notQueued(entryId);
    },
  };
}
