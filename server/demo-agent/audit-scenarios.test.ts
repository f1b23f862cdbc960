// The compaction audit's demo scenarios, end to end: the real demo agent compacts through the
// real daemon, and the audit endpoint says what each summary dropped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CompactionAudit } from "../../src/contract/compaction-audit";
import { UsageTurns } from "../../src/contract/usage";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { compactAndWait, promptAndWait } from "../testing/session-driver";

let daemon: TestDaemon;
beforeAll(async () => {
  daemon = await startTestDaemon();
});
afterAll(() => daemon?.stop());

async function auditOfNewest(sessionId: string): Promise<CompactionAudit> {
  const turns = UsageTurns.parse(
    await (await daemon.call("GET", `${daemon.sessionPath(sessionId)}/usage/turns`)).json(),
  );
  const newest = turns.compactions.at(-1)?.compaction_id ?? "";
  const response = await daemon.call(
    "GET",
    `${daemon.sessionPath(sessionId)}/compactions/${newest}/audit`,
  );
  expect(response.status).toBe(200);
  return CompactionAudit.parse(await response.json());
}

const statusOf = (audit: CompactionAudit, kind: string) =>
  audit.items.filter((item) => item.kind === kind).map((item) => [item.label, item.status]);

describe("demo scenarios for the compaction audit", () => {
  it("when lossy is armed, then the audit shows an instruction, a file and the last request dropped", async () => {
    const { id } = await daemon.createActiveSession();
    await promptAndWait(daemon, id, "/demo lossy");
    await promptAndWait(daemon, id, "Build a CSV export for the invoices table");
    await promptAndWait(daemon, id, "Never include the customer's tax number column");
    await promptAndWait(daemon, id, "Now add a download button in web/src/invoices/page.tsx");
    await compactAndWait(daemon, id);
    const audit = await auditOfNewest(id);
    expect(audit.summary_readable).toBe(true);
    // Dropped first.
    expect(statusOf(audit, "instruction")).toEqual([
      ["Never include the customer's tax number column", "dropped"],
      ["Build a CSV export for the invoices table", "kept"],
    ]);
    expect(statusOf(audit, "last_request")).toEqual([
      ["Now add a download button in web/src/invoices/page.tsx", "dropped"],
    ]);
    expect(audit.items).toContainEqual(
      expect.objectContaining({
        kind: "path",
        label: "web/src/invoices/page.tsx",
        status: "dropped",
      }),
    );
    expect(audit.items[0]?.status).toBe("dropped");
    expect(audit.span.turns).toBe(4);
  });

  it('when keep-pinned is armed, then a "Keep this:" message is carried word for word', async () => {
    const { id } = await daemon.createActiveSession();
    await promptAndWait(daemon, id, "/demo keep-pinned");
    await promptAndWait(daemon, id, "Set up the release workflow");
    await promptAndWait(daemon, id, "Keep this: never publish from a dirty working tree");
    await promptAndWait(daemon, id, "Add a changelog check to the workflow");
    await compactAndWait(daemon, id);
    const audit = await auditOfNewest(id);
    expect(statusOf(audit, "instruction")).toEqual([
      ["Set up the release workflow", "kept"],
      ["Keep this: never publish from a dirty working tree", "kept"],
    ]);
    expect(statusOf(audit, "last_request")).toEqual([
      ["Add a changelog check to the workflow", "dropped"],
    ]);
  });

  it("when forgetful is armed for a second compaction, then previous.lost lists what the first summary kept", async () => {
    const { id } = await daemon.createActiveSession();
    await promptAndWait(daemon, id, "Migrate the settings page to the new form library");
    await promptAndWait(daemon, id, "Keep the old validation messages exactly as they are");
    await compactAndWait(daemon, id);
    await promptAndWait(daemon, id, "/demo forgetful");
    await promptAndWait(daemon, id, "Now add a reset button to the settings form");
    await compactAndWait(daemon, id);
    const audit = await auditOfNewest(id);
    expect(audit.previous).not.toBeNull();
    expect(audit.previous?.summary).toContain("Migrate the settings page");
    expect(audit.previous?.lost.map((item) => item.label)).toEqual(
      expect.arrayContaining([
        "Migrate the settings page to the new form library",
        "Keep the old validation messages exactly as they are",
      ]),
    );
    expect(statusOf(audit, "last_request")).toEqual([
      ["Now add a reset button to the settings form", "kept"],
    ]);
  });
});
