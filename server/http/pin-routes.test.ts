// Pins over HTTP against a real daemon (real ledger, real demo agent): a user message can
// be pinned and unpinned, the pins survive a daemon restart, and anything that is not a
// user message of that session is refused without writing.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { CompactionAudit } from "../../src/contract/compaction-audit";
import { PinEnvelope, PinList } from "../../src/contract/pins";
import { UsageTurns } from "../../src/contract/usage";
import { demoAgent, startTestDaemon, type TestDaemon } from "../testing/daemon";
import { compactAndWait, promptAndWait, transcript } from "../testing/session-driver";

const agentDir = mkdtempSync(join(tmpdir(), "tideline-pin-agents-"));
afterAll(() => rmSync(agentDir, { recursive: true, force: true }));
const daemons: TestDaemon[] = [];
afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.stop();
});

async function daemonWith(dir?: string) {
  const daemon = await startTestDaemon({
    agents: [demoAgent(agentDir)],
    ...(dir === undefined ? {} : { dir }),
  });
  daemons.push(daemon);
  return daemon;
}

async function sessionWithMessages(daemon: TestDaemon) {
  const session = await daemon.createActiveSession();
  await promptAndWait(daemon, session.id, "Never touch the generated files in src/gen/.");
  await promptAndWait(daemon, session.id, "Now rename the billing module.");
  const messages = await transcript(daemon, session.id);
  const users = messages.filter((message) => message.role === "user").map((m) => m.id);
  const agent = messages.find((message) => message.role === "assistant")?.id;
  if (users.length < 2 || agent === undefined) throw new Error("demo agent wrote no reply");
  return { session, users, agent };
}

async function pinsOf(daemon: TestDaemon, id: string) {
  const response = await daemon.call("GET", `${daemon.sessionPath(id)}/pins`);
  expect(response.status).toBe(200);
  return PinList.parse(await response.json()).pins;
}

const pinPath = (daemon: TestDaemon, id: string, entry: string) =>
  `${daemon.sessionPath(id)}/pins/${encodeURIComponent(entry)}`;

describe("pins", () => {
  it("when a person pins two of their messages and unpins one, then the list holds the other, pinning again keeps its first time, and a restart keeps it", async () => {
    const first = await daemonWith();
    const { session, users } = await sessionWithMessages(first);
    const [older = "", newer = ""] = users;
    expect(await pinsOf(first, session.id)).toEqual([]);

    const pinned = await first.call("PUT", pinPath(first, session.id, older));
    expect(pinned.status).toBe(200);
    const { pin } = PinEnvelope.parse(await pinned.json());
    expect(pin.entry_id).toBe(older);
    expect((await first.call("PUT", pinPath(first, session.id, newer))).status).toBe(200);
    const again = PinEnvelope.parse(
      await (await first.call("PUT", pinPath(first, session.id, older))).json(),
    );
    expect(again.pin.pinned_at).toBe(pin.pinned_at);

    expect((await first.call("DELETE", pinPath(first, session.id, newer))).status).toBe(204);
    // Unpinning what is not pinned is the wanted state already.
    expect((await first.call("DELETE", pinPath(first, session.id, newer))).status).toBe(204);
    expect(await pinsOf(first, session.id)).toEqual([pin]);
    expect(first.ledger.settings.pinnedEntryIdsOf(session.id)).toEqual([older]);

    await first.close();
    daemons.splice(daemons.indexOf(first), 1);
    const second = await daemonWith(first.dir);
    expect(await pinsOf(second, session.id)).toEqual([pin]);
  }, 60_000);

  it("when the entry is the agent's, unknown, another session's, oversized or the session is unknown, then it is refused and nothing is pinned", async () => {
    const daemon = await daemonWith();
    const { session, users, agent } = await sessionWithMessages(daemon);
    const other = await daemon.createActiveSession();

    const byAgent = await daemon.call("PUT", pinPath(daemon, session.id, agent));
    expect(byAgent.status).toBe(400);
    expect(await byAgent.json()).toMatchObject({
      code: "invalid_request",
      details: { entry_id: "not a user message" },
    });
    const unknown = await daemon.call("PUT", pinPath(daemon, session.id, "msg-nope"));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "not_found" });
    // A message of one session cannot be pinned in another.
    expect((await daemon.call("PUT", pinPath(daemon, other.id, users[0] ?? ""))).status).toBe(404);
    const huge = await daemon.call("PUT", pinPath(daemon, session.id, "x".repeat(10_000)));
    expect(huge.status).toBe(400);
    const hostile = await daemon.call(
      "PUT",
      pinPath(daemon, session.id, "<img src=x onerror=alert(1)>' OR 1=1 --"),
    );
    expect(hostile.status).toBe(404);
    expect((await daemon.call("PUT", `${daemon.sessionPath("nope")}/pins/${agent}`)).status).toBe(
      404,
    );
    expect(
      (await daemon.call("GET", `/api/workspaces/other/sessions/${session.id}/pins`)).status,
    ).toBe(404);
    expect((await daemon.call("GET", `${daemon.sessionPath(session.id)}/pins?x=1`)).status).toBe(
      400,
    );

    expect(await pinsOf(daemon, session.id)).toEqual([]);
    expect(await pinsOf(daemon, other.id)).toEqual([]);
  }, 60_000);

  it("when a pinned message is dropped by a lossy summary, then the audit endpoint marks it pinned and lists it in pinned_dropped; unpinned, it is not", async () => {
    const daemon = await daemonWith();
    const { id } = await daemon.createActiveSession();
    await promptAndWait(daemon, id, "/demo lossy");
    await promptAndWait(daemon, id, "Build a CSV export for the invoices table");
    await promptAndWait(daemon, id, "Never include the customer's tax number column");
    await promptAndWait(daemon, id, "Now add a download button");
    const rule = (await transcript(daemon, id)).find((message) =>
      message.parts.some((part) => part.type === "text" && part.text.startsWith("Never include")),
    );
    expect((await daemon.call("PUT", pinPath(daemon, id, rule?.id ?? ""))).status).toBe(200);
    await compactAndWait(daemon, id);
    const turns = UsageTurns.parse(
      await (await daemon.call("GET", `${daemon.sessionPath(id)}/usage/turns`)).json(),
    );
    const auditPath = `${daemon.sessionPath(id)}/compactions/${turns.compactions.at(-1)?.compaction_id}/audit`;
    const audit = CompactionAudit.parse(await (await daemon.call("GET", auditPath)).json());
    const pinned = audit.items.filter((item) => item.pinned);
    expect(pinned).toEqual([
      expect.objectContaining({ entry_id: rule?.id, status: "dropped", by_person: true }),
    ]);
    expect(audit.pinned_dropped).toEqual(pinned.map((item) => item.key));

    expect((await daemon.call("DELETE", pinPath(daemon, id, rule?.id ?? ""))).status).toBe(204);
    const after = CompactionAudit.parse(await (await daemon.call("GET", auditPath)).json());
    expect(after.pinned_dropped).toEqual([]);
    expect(after.items.some((item) => item.pinned)).toBe(false);
  }, 60_000);

  it("when a session with pins is deleted, then its pins go with it", async () => {
    const daemon = await daemonWith();
    const { session, users } = await sessionWithMessages(daemon);
    expect((await daemon.call("PUT", pinPath(daemon, session.id, users[0] ?? ""))).status).toBe(
      200,
    );
    await daemon.call("POST", `${daemon.sessionPath(session.id)}/stop`);
    const deleted = await daemon.call("DELETE", daemon.sessionPath(session.id));
    expect(deleted.status).toBe(204);
    expect(daemon.ledger.settings.pinnedEntryIdsOf(session.id)).toEqual([]);
  }, 60_000);
});
