// The audit endpoint over a real ledger: spans between completed compactions, the previous
// summary, pins from before the span, turn numbers as the turns list gives them, and 404s.
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { CompactionAudit } from "../../src/contract/compaction-audit";
import { ErrorEnvelope } from "../../src/contract/error";
import { frames, openTestSession, type TestSession } from "../testing/ledger-session";
import { ApiError, sendError } from "./api-error";
import { mountAuditRoutes } from "./audit-routes";
import { createResponder } from "./respond";

let t: TestSession;
afterEach(() => t?.ledger.close());

function appFor(pins: string[] = []) {
  const app = new Hono();
  app.onError((error, c) =>
    error instanceof ApiError ? sendError(c, error) : c.text("boom", 500),
  );
  mountAuditRoutes(app, {
    store: t.ledger.store,
    audits: t.ledger.audits,
    pinsOf: () => pins,
    respond: createResponder(true, () => {}),
  });
  const ws = t.ledger.store.getSession(t.sessionId)?.workspace_id ?? "";
  return {
    get: (compactionId: string, sessionId = t.sessionId, workspace = ws) =>
      app.request(
        `/api/workspaces/${workspace}/sessions/${sessionId}/compactions/${compactionId}/audit`,
      ),
  };
}

function turn(turnId: string, text: string, reply?: string) {
  t.ledger.recorder.recordInput(t.sessionId, turnId, text);
  if (reply !== undefined)
    t.ledger.recorder.recordUpdate(t.sessionId, turnId, frames.text(reply, `m-${turnId}`));
}

function compact(turnId: string, compactionId: string, summary?: string) {
  t.ledger.recorder.recordInput(t.sessionId, turnId, "/compact", { maintenance: true });
  const { recorder } = t.ledger;
  recorder.recordUpdate(t.sessionId, turnId, frames.compaction(compactionId, "in_progress"));
  if (summary !== undefined)
    recorder.recordUpdate(t.sessionId, turnId, frames.chunk(compactionId, summary));
  recorder.recordUpdate(t.sessionId, turnId, frames.compaction(compactionId, "completed"));
}

function userIds(): string[] {
  return t.ledger.reader
    .transcriptPage(t.sessionId, { limit: 100 })
    .entries.filter((entry) => entry.message.role === "user")
    .map((entry) => entry.message.id);
}

describe("GET …/compactions/{compaction_id}/audit", () => {
  it("when the second compaction is audited, then its span starts after the first, with numbered turns and what it lost", async () => {
    t = openTestSession();
    turn("t1", "Money amounts are integer cents, never floats", "Noted.");
    turn("t2", "Add a discount field in src/orders/order.ts");
    compact(
      "t3",
      "c1",
      "Rule: money amounts are integer cents, never floats. Discount added in src/orders/order.ts.",
    );
    turn("t4", "Show the discount on the receipt page", "Done.");
    compact("t5", "c2", "The receipt page shows the discount.");
    const response = await appFor().get("c2");
    expect(response.status).toBe(200);
    const audit = CompactionAudit.parse(await response.json());
    expect(audit.summary_readable).toBe(true);
    expect(audit.span).toMatchObject({
      first_turn_number: 4,
      last_turn_number: 4,
      turns: 1,
      first_turn_id: "t4",
    });
    expect(audit.items.map((item) => [item.kind, item.status])).toEqual([["last_request", "kept"]]);
    expect(audit.previous?.compaction_id).toBe("c1");
    expect(audit.previous?.summary).toContain("integer cents");
    expect(audit.previous?.lost.map((item) => item.label)).toEqual([
      "Add a discount field in src/orders/order.ts",
      "Money amounts are integer cents, never floats",
      "src/orders/order.ts",
    ]);
  });

  it("when a failed compaction lies between two completed ones, then it is no boundary: the span reaches back to the completed one", async () => {
    t = openTestSession();
    turn("t1", "First request about the parser");
    compact("t2", "c1", "Parser request noted.");
    turn("t3", "Second request about the lexer");
    t.ledger.recorder.recordInput(t.sessionId, "t4", "/compact", { maintenance: true });
    t.ledger.recorder.recordUpdate(t.sessionId, "t4", frames.compaction("c2", "in_progress"));
    t.ledger.recorder.recordUpdate(
      t.sessionId,
      "t4",
      frames.compaction("c2", "failed", { error: "too small" }),
    );
    turn("t5", "Third request about the printer");
    compact("t6", "c3", "Printer request noted.");
    const audit = CompactionAudit.parse(await (await appFor().get("c3")).json());
    expect(audit.previous?.compaction_id).toBe("c1");
    expect(audit.span).toMatchObject({ first_turn_id: "t3", last_turn_id: "t5", turns: 2 });
    expect(audit.span.first_turn_number).toBe(3);
    expect(audit.items.map((item) => [item.label, item.status])).toEqual([
      ["Second request about the lexer", "dropped"],
      ["Third request about the printer", "kept"],
    ]);
    // The failed compaction's own audit: its summary is not readable.
    const failed = CompactionAudit.parse(await (await appFor().get("c2")).json());
    expect(failed.summary_readable).toBe(false);
  });

  it("when the first compaction is audited, then its span is the session's start and no previous", async () => {
    t = openTestSession();
    turn("t1", "Fix the flaky login test in e2e/login.spec.ts", "Looking.");
    compact("t2", "c1", "Working on something.");
    const audit = CompactionAudit.parse(await (await appFor().get("c1")).json());
    expect(audit.previous).toBeNull();
    expect(audit.span).toMatchObject({ first_turn_number: 1, last_turn_number: 1, turns: 1 });
    expect(audit.counts).toEqual({ total: 2, kept: 0, dropped: 2, unchecked: 0 });
  });

  it("when a message from before the span is pinned and the summary drops it, then pinned_dropped names it", async () => {
    t = openTestSession();
    turn("t1", "Keep this: never push to the main branch directly");
    compact("t2", "c1", "Rule: never push to the main branch directly.");
    turn("t3", "Add a CI job for the unit tests");
    compact("t4", "c2", "Added a CI job for the unit tests.");
    const pinned = userIds()[0] as string;
    const audit = CompactionAudit.parse(await (await appFor([pinned]).get("c2")).json());
    expect(audit.pinned_dropped).toEqual([`instruction:${pinned}`]);
    expect(audit.items[0]).toMatchObject({ kind: "pinned", status: "dropped", pinned: true });
  });

  it("when the compaction completed without a summary, then nothing is dropped", async () => {
    t = openTestSession();
    turn("t1", "Refactor the scheduler");
    compact("t2", "c1");
    const audit = CompactionAudit.parse(await (await appFor().get("c1")).json());
    expect(audit.summary_readable).toBe(false);
    expect(audit.counts.dropped).toBe(0);
    expect(audit.items.every((item) => item.status === "unchecked")).toBe(true);
  });

  it("when the session or the compaction is unknown, or the query has parameters, then it answers with an error envelope", async () => {
    t = openTestSession();
    turn("t1", "hello");
    compact("t2", "c1", "said hello");
    const api = appFor();
    const unknownCompaction = await api.get("nope");
    expect(unknownCompaction.status).toBe(404);
    expect(ErrorEnvelope.parse(await unknownCompaction.json())).toMatchObject({
      code: "not_found",
      error: "compaction not found",
    });
    const unknownSession = await api.get("c1", "no-such-session");
    expect(unknownSession.status).toBe(404);
    expect(ErrorEnvelope.parse(await unknownSession.json()).error).toBe("session not found");
    expect((await api.get("c1", t.sessionId, "other-workspace")).status).toBe(404);
    // A user message id is not a compaction id, even if someone tries the entry key.
    expect((await api.get(userIds()[0] as string)).status).toBe(404);
  });

  it("when messages hold HTML and 1 MB of text, then the answer is JSON with the text as data, bounded in size", async () => {
    t = openTestSession();
    const html = '<img src=x onerror="alert(1)"> <script>alert(2)</script> **bold**';
    turn("t1", html);
    turn("t2", `${"word src/a.ts ".repeat(80_000)}end`);
    compact("t3", "c1", `<b>summary</b> ${"x ".repeat(500_000)}`);
    const started = performance.now();
    const response = await appFor().get("c1");
    expect(performance.now() - started).toBeLessThan(3000);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const text = await response.text();
    expect(text.length).toBeLessThan(100_000);
    const audit = CompactionAudit.parse(JSON.parse(text));
    expect(audit.items.find((item) => item.kind === "instruction")?.label).toBe(html);
  });
});
