// Lineage of continue and fork over HTTP with real demo agents (ADR 0136): both ends are
// readable from the session view, the new session is named after its source and shows what
// the replay carried, and a continued session is read-only with a pointer forward.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DerivePreview } from "../../src/contract/derive";
import { SessionEnvelope } from "../../src/contract/session";
import { derivedName } from "../acp/session/session-lineage";
import { demoAgent, startTestDaemon, type TestDaemon } from "../testing/daemon";
import { promptAndWait, transcript } from "../testing/session-driver";

const agentDir = mkdtempSync(join(tmpdir(), "tideline-lineage-agents-"));
afterAll(() => rmSync(agentDir, { recursive: true, force: true }));
const daemons: TestDaemon[] = [];
afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.stop();
});

async function detail(daemon: TestDaemon, id: string) {
  const response = await daemon.call("GET", daemon.sessionPath(id));
  return SessionEnvelope.parse(await response.json()).session;
}

async function derive(daemon: TestDaemon, id: string, kind: "continue" | "fork", body = {}) {
  const response = await daemon.call("POST", `${daemon.sessionPath(id)}/${kind}`, { body });
  expect(response.status, await response.clone().text()).toBe(201);
  return SessionEnvelope.parse(await response.json()).session;
}

describe("derivedName", () => {
  it("when a session is derived, then it is named after its source, one suffix per kind", () => {
    expect(derivedName("Billing", "continue")).toBe("Billing (continued)");
    expect(derivedName("Billing (continued)", "continue")).toBe("Billing (continued)");
    expect(derivedName("Billing", "fork")).toBe("Billing (fork)");
    expect(derivedName("  ", "fork")).toBeUndefined();
    expect(derivedName(undefined, "fork")).toBeUndefined();
    expect(derivedName("x".repeat(300), "continue")?.length).toBe(200);
  });
});

describe("continue and fork lineage", () => {
  it("when a session is continued, then both views link each other, the new one is named after it and shows the carried replay, and the old one is read-only", async () => {
    const daemon = await startTestDaemon({ agents: [demoAgent(agentDir, "demo")] });
    daemons.push(daemon);
    const source = await daemon.createActiveSession("demo");
    await daemon.call("PATCH", daemon.sessionPath(source.id), { body: { name: "Billing" } });
    await promptAndWait(daemon, source.id, "Plan the billing migration");
    const previewed = DerivePreview.parse(
      await (await daemon.call("GET", `${daemon.sessionPath(source.id)}/derive/preview`)).json(),
    );

    const next = await derive(daemon, source.id, "continue");
    expect(next.name).toBe("Billing (continued)");
    expect((await detail(daemon, next.id)).derivation).toEqual({
      derived_from: {
        session_id: source.id,
        kind: "continue",
        name: "Billing",
        created_at: expect.any(String),
      },
      derived: [],
    });
    const old = await daemon.waitForSession(source.id, (s) => s.state === "stopped");
    expect(old.derivation).toMatchObject({
      derived: [{ session_id: next.id, kind: "continue", name: "Billing (continued)" }],
      continued_in: next.id,
    });

    // The new session's timeline starts with what its first prompt will carry.
    const [carried] = await transcript(daemon, next.id);
    const part = carried?.parts[0];
    expect(part?.type).toBe("data-compozy-event");
    expect(part && "data" in part ? part.data : undefined).toMatchObject({
      type: "session.replay_carried",
      source_session_id: source.id,
      source_name: "Billing",
      kind: "continue",
      message_count: previewed.message_count,
      replay_bytes: previewed.replay_bytes,
      messages: [
        { role: "user", content: "Plan the billing migration" },
        { role: "assistant", content: expect.any(String) },
      ],
    });

    // Read-only, with the way forward: no prompt, no second continue; a fork is fine.
    const refused = await daemon.prompt(source.id, "one more thing");
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: "session_continued",
      details: { continued_in: next.id },
    });
    expect(daemon.host.getSession(source.id).state).toBe("stopped");
    const again = await daemon.call("POST", `${daemon.sessionPath(source.id)}/continue`, {
      body: {},
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "session_continued" });
    const fork = await derive(daemon, source.id, "fork", { name: "Try B" });
    expect(fork.name).toBe("Try B");
    expect((await detail(daemon, source.id)).derivation?.derived.map((l) => l.kind)).toEqual([
      "continue",
      "fork",
    ]);

    // Deleting the source keeps the note, marked as gone.
    await daemon.call("DELETE", daemon.sessionPath(source.id));
    expect((await detail(daemon, next.id)).derivation?.derived_from).toMatchObject({
      session_id: source.id,
      deleted: true,
    });
    // The list stays lean: lineage is on the detail only.
    const list = await (await daemon.call("GET", "/api/sessions")).json();
    expect(JSON.stringify(list)).not.toContain("derivation");
  }, 60_000);
});
