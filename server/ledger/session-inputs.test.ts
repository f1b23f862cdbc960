import { afterEach, describe, expect, it } from "vitest";
import type { NewSessionInput } from "../domain/session-inputs-api";
import { openTestSession, tempDatabase } from "../testing/ledger-session";
import { openLedger } from "./open-ledger";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function entry(sessionId: string, text: string, mode: NewSessionInput["mode"] = "queue") {
  return {
    session_id: sessionId,
    text,
    mode,
    delivery: mode === "queue" ? "after_turn" : "interrupt_then_prompt",
    message_id: `m-${text}`,
    idempotency_key: `k-${text}`,
    fingerprint: `f-${text}`,
    result: { status: "queued" },
  } satisfies NewSessionInput;
}

describe("the prompt queue's table", () => {
  it("when the database is closed and reopened, then waiting messages are still there in order", () => {
    const db = tempDatabase();
    cleanups.push(db.cleanup);
    const { ledger, sessionId } = openTestSession(db.path);
    const a = ledger.inputs.enqueue(entry(sessionId, "a"));
    ledger.inputs.enqueue(entry(sessionId, "b"));
    ledger.inputs.settle(sessionId, a.id, "sent");
    ledger.inputs.enqueue(entry(sessionId, "c"));
    ledger.close();
    const reopened = openLedger(db.path);
    cleanups.unshift(() => reopened.close());
    expect(reopened.inputs.pending(sessionId).map((input) => input.text)).toEqual(["b", "c"]);
    expect(reopened.inputs.get(sessionId, a.id)?.status).toBe("sent");
  });

  it("when a message is steered, then it goes before every queued one; settled ones cannot change", () => {
    const { ledger, sessionId } = openTestSession();
    cleanups.push(() => ledger.close());
    ledger.inputs.enqueue(entry(sessionId, "one"));
    const two = ledger.inputs.enqueue(entry(sessionId, "two"));
    const change = {
      text: "two!",
      message_id: "m2",
      idempotency_key: "k2",
      fingerprint: "f",
      result: {},
    };
    expect(ledger.inputs.promote(sessionId, two.id, "turn-1", change)).toMatchObject({
      mode: "steer",
      delivery: "interrupt_then_prompt",
      target_turn_id: "turn-1",
    });
    ledger.inputs.enqueue(entry(sessionId, "three"));
    expect(ledger.inputs.pending(sessionId).map((input) => input.text)).toEqual([
      "two!",
      "one",
      "three",
    ]);
    expect(ledger.inputs.cancelQueued(sessionId)).toBe(2);
    expect(ledger.inputs.settle(sessionId, two.id, "sent")).toBe(true);
    expect(ledger.inputs.settle(sessionId, two.id, "canceled")).toBe(false);
    expect(ledger.inputs.edit(sessionId, two.id, change)).toBeUndefined();
    expect(ledger.inputs.pending(sessionId)).toEqual([]);
  });

  it("when its session is deleted, then its queue goes with it", () => {
    const { ledger, sessionId } = openTestSession();
    cleanups.push(() => ledger.close());
    const kept = ledger.inputs.enqueue(entry(sessionId, "x"));
    ledger.store.deleteSession(sessionId);
    expect(ledger.inputs.get(sessionId, kept.id)).toBeUndefined();
  });
});
