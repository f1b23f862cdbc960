import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DaemonPromptResultEnvelope } from "../../src/contract/commands";
import { QueuedInputEnvelope, QueuedInputList } from "../../src/contract/compozy-surfaces";
import { ErrorEnvelope } from "../../src/contract/error";
import { DaemonEventList } from "../../src/contract/history";
import { REFUSAL_MESSAGES } from "../acp/session-refusal";
import { demoAgent, startTestDaemon, type TestDaemon } from "../testing/daemon";

async function refusal(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = ErrorEnvelope.parse(await response.json());
  expect(body.code).toBe(code);
  return body;
}

const ids = () => ({ message_id: `msg-${randomUUID()}`, idempotency_key: `idem-${randomUUID()}` });

describe("the prompt queue over HTTP (CompozyOS's queue and steer endpoints), with the demo agent", () => {
  let daemon: TestDaemon;

  beforeAll(async () => {
    daemon = await startTestDaemon({ agents: [demoAgent(process.env.TMPDIR ?? "/tmp")] });
  });
  afterAll(() => daemon.stop());

  const queuePath = (id: string) => `${daemon.sessionPath(id)}/prompt/queue`;
  async function queue(id: string) {
    const response = await daemon.call("GET", queuePath(id));
    expect(response.status).toBe(200);
    return QueuedInputList.parse(await response.json()).inputs;
  }
  async function queued(id: string, message: string) {
    const response = await daemon.prompt(id, message);
    expect(response.status).toBe(202);
    return DaemonPromptResultEnvelope.parse(await response.json()).prompt;
  }
  /** The texts the agent was sent, in order. */
  async function inputs(id: string) {
    const response = await daemon.call("GET", `${daemon.sessionPath(id)}/events?type=input`);
    const list = DaemonEventList.parse(await response.json());
    return list.events.map((event) => String((event.content as Record<string, unknown>).text));
  }
  async function runningTurn(id: string, seconds = 30) {
    expect((await daemon.prompt(id, `/demo wait ${seconds}`)).status).toBe(200);
    const session = await daemon.waitForSession(id, (s) => s.activity?.turn_id !== undefined);
    return session.activity?.turn_id ?? "";
  }

  it("when messages are sent during a turn, then they queue (202) and go in order after it", async () => {
    const session = await daemon.createActiveSession();
    await runningTurn(session.id, 1);
    const first = await queued(session.id, "first after");
    expect(first).toMatchObject({
      status: "queued",
      mode: "queue",
      delivery: "after_turn",
      queue_position: 1,
      replayed: false,
    });
    const second = await queued(session.id, "second after");
    expect(second.queue_position).toBe(2);
    const listed = await queue(session.id);
    expect(listed.map((input) => [input.id, input.text, input.status])).toEqual([
      [first.queue_entry_id, "first after", "queued"],
      [second.queue_entry_id, "second after", "queued"],
    ]);
    await daemon.waitForSession(
      session.id,
      (s) => s.activity === undefined && daemon.ledger.inputs.pending(session.id).length === 0,
    );
    expect(await inputs(session.id)).toEqual(["/demo wait 1", "first after", "second after"]);
    expect(await queue(session.id)).toEqual([]);
  });

  it("when a queued send is retried with its key, then the first answer is replayed, never a second entry", async () => {
    const session = await daemon.createActiveSession();
    await runningTurn(session.id);
    const body = { message: "once", ...ids() };
    const path = `${daemon.sessionPath(session.id)}/prompt`;
    const a = DaemonPromptResultEnvelope.parse(
      await (await daemon.call("POST", path, { body })).json(),
    );
    const again = await daemon.call("POST", path, { body });
    expect(again.status).toBe(202);
    const b = DaemonPromptResultEnvelope.parse(await again.json());
    expect(b.prompt).toMatchObject({ queue_entry_id: a.prompt.queue_entry_id, replayed: true });
    await refusal(
      await daemon.call("POST", path, { body: { ...body, message: "other words" } }),
      409,
      "prompt_idempotency_conflict",
    );
    expect(await queue(session.id)).toHaveLength(1);
    await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt/cancel`);
  });

  it("when a queued message is edited or removed, then the queue says so; hostile bodies are 400s", async () => {
    const session = await daemon.createActiveSession();
    await runningTurn(session.id);
    const entry = (await queued(session.id, "typo hre")).queue_entry_id ?? "";
    const path = `${queuePath(session.id)}/${entry}`;
    for (const body of [
      { text: "", ...ids() },
      { text: "   ", ...ids() },
      { text: "x".repeat(100_001), ...ids() },
      { text: "fine", message_id: "m" },
      { text: 42, ...ids() },
      ["not", "an", "object"],
    ]) {
      await refusal(await daemon.call("PUT", path, { body }), 400, "invalid_request");
    }
    await refusal(
      await daemon.call("PUT", path, {
        rawBody: "{not json",
        headers: { "Content-Type": "application/json" },
      }),
      400,
      "invalid_request",
    );
    const edit = { text: "typo here", ...ids() };
    const put = await daemon.call("PUT", path, { body: edit });
    expect(put.status).toBe(200);
    const { input } = QueuedInputEnvelope.parse(await put.json());
    expect(input).toMatchObject({ id: entry, text: "typo here", message_id: edit.message_id });
    // The same edit again is the same answer; the same key for other words is a conflict.
    expect((await daemon.call("PUT", path, { body: edit })).status).toBe(200);
    await refusal(
      await daemon.call("PUT", path, { body: { ...edit, text: "else" } }),
      409,
      "prompt_idempotency_conflict",
    );
    await refusal(
      await daemon.call("PUT", `${queuePath(session.id)}/qin_nope`, { body: edit }),
      404,
      "not_found",
    );
    await refusal(await daemon.call("GET", queuePath("ses_nope")), 404, "not_found");
    const removed = await daemon.call("DELETE", path);
    expect(removed.status).toBe(200);
    expect(DaemonPromptResultEnvelope.parse(await removed.json()).prompt).toMatchObject({
      status: "canceled",
      delivery: "none",
      queue_entry_id: entry,
    });
    expect(await queue(session.id)).toEqual([]);
    await refusal(await daemon.call("DELETE", path), 409, "queue_entry_not_queued");
    await refusal(
      await daemon.call("PUT", path, { body: { text: "late", ...ids() } }),
      409,
      "queue_entry_not_queued",
    );
    await refusal(
      await daemon.call("DELETE", `${queuePath(session.id)}/qin_nope`),
      404,
      "not_found",
    );
    await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt/cancel`);
  });

  it("when a queued message is sent now, then it replaces the running turn and goes before the rest", async () => {
    const session = await daemon.createActiveSession();
    const turn = await runningTurn(session.id);
    const later = await queued(session.id, "later");
    const urgent = (await queued(session.id, "urgent")).queue_entry_id ?? "";
    const steer = `${queuePath(session.id)}/${urgent}/steer`;
    await refusal(
      await daemon.call("POST", steer, { body: { text: "urgent", ...ids() } }),
      400,
      "invalid_request",
    );
    await refusal(
      await daemon.call("POST", steer, {
        body: { text: "urgent", ...ids(), expected_turn_id: "turn_old" },
      }),
      409,
      "active_turn_mismatch",
    );
    const answer = await daemon.call("POST", steer, {
      body: { text: "urgent!", ...ids(), expected_turn_id: turn },
    });
    expect(answer.status).toBe(202);
    expect(DaemonPromptResultEnvelope.parse(await answer.json()).prompt).toMatchObject({
      status: "steering",
      mode: "steer",
      delivery: "interrupt_then_prompt",
      queue_entry_id: urgent,
    });
    await daemon.waitForSession(
      session.id,
      (s) => s.activity === undefined && daemon.ledger.inputs.pending(session.id).length === 0,
    );
    expect(await inputs(session.id)).toEqual(["/demo wait 30", "urgent!", "later"]);
    expect(later.queue_entry_id).toBeDefined();
  });

  it("when steering without a running turn or without its fence, then 409 and 400 as CompozyOS answers", async () => {
    const session = await daemon.createActiveSession();
    const path = `${daemon.sessionPath(session.id)}/steer`;
    await refusal(
      await daemon.call("POST", path, { body: { text: "go", ...ids(), expected_turn_id: "t" } }),
      409,
      "prompt_not_in_progress",
    );
    await refusal(
      await daemon.call("POST", path, { body: { text: "go", ...ids() } }),
      400,
      "invalid_request",
    );
    await refusal(
      await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt`, {
        body: { message: "go", ...ids(), mode: "interrupt" },
      }),
      400,
      "invalid_request",
    );
    const turn = await runningTurn(session.id);
    await queued(session.id, "dropped by the interrupt");
    const interrupt = await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt`, {
      body: { message: "instead", ...ids(), mode: "interrupt", expected_turn_id: turn },
    });
    expect(interrupt.status).toBe(202);
    expect(DaemonPromptResultEnvelope.parse(await interrupt.json()).prompt).toMatchObject({
      status: "interrupting",
      previous_turn_id: turn,
      canceled_queued_entries: 1,
    });
    await daemon.waitForSession(
      session.id,
      (s) => s.activity === undefined && daemon.ledger.inputs.pending(session.id).length === 0,
    );
    expect(await inputs(session.id)).toEqual(["/demo wait 30", "instead"]);
  });

  it("when the agent is stopped with messages queued, then it keeps them and they go once it resumes", async () => {
    const session = await daemon.createActiveSession();
    await runningTurn(session.id);
    await queued(session.id, "kept one");
    await queued(session.id, "kept two");
    expect((await daemon.call("POST", `${daemon.sessionPath(session.id)}/stop`)).status).toBe(204);
    await daemon.waitForSession(session.id, (s) => s.state === "stopped");
    expect((await queue(session.id)).map((input) => input.text)).toEqual(["kept one", "kept two"]);
    // A new send waits behind them and brings the session back.
    expect((await queued(session.id, "third")).queue_position).toBe(3);
    await daemon.waitForSession(
      session.id,
      (s) =>
        s.state === "active" &&
        s.activity === undefined &&
        daemon.ledger.inputs.pending(session.id).length === 0,
    );
    expect(await inputs(session.id)).toEqual(["/demo wait 30", "kept one", "kept two", "third"]);
  });

  it("when a session is deleted while a turn runs, then 409 in the daemon's words; once idle it goes", async () => {
    const session = await daemon.createActiveSession();
    await runningTurn(session.id);
    const refused = await refusal(
      await daemon.call("DELETE", daemon.sessionPath(session.id)),
      409,
      "session_busy",
    );
    expect(refused.error).toBe(REFUSAL_MESSAGES.session_delete_busy);
    await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt/cancel`);
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    expect((await daemon.call("DELETE", daemon.sessionPath(session.id))).status).toBe(204);
  });
});
