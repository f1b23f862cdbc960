import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { ensureWelcomeSession, WELCOME_SESSION_NAME } from "./welcome-session";

describe("the welcome session", () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon();
  });
  afterAll(() => daemon.stop());

  it("when the data dir is empty, then a scripted conversation with a completed compaction and a fresh reading is recorded, once", async () => {
    const deps = { host: daemon.host, store: daemon.ledger.store, workspaceId: daemon.ws };
    const id = await ensureWelcomeSession(deps);
    expect(id).toBeDefined();
    const sessionId = id ?? "";
    expect(daemon.host.findSession(sessionId)).toMatchObject({
      name: WELCOME_SESSION_NAME,
      state: "active",
    });

    const entries = daemon.ledger.reader.transcriptPage(sessionId, { limit: 1000 }).entries;
    const compaction = entries
      .flatMap((entry) => entry.message.parts)
      .find((part) => part.type === "data-compozy-compaction");
    expect(compaction).toMatchObject({
      data: { status: "completed", summary: expect.stringContaining("summary") },
    });
    expect(entries.filter((entry) => entry.message.role === "user").length).toBeGreaterThanOrEqual(
      5,
    );

    const usage = daemon.ledger.reader.usage(sessionId);
    expect(usage.context.state).toBe("reported");
    const turns = daemon.ledger.reader.usageTurns(sessionId);
    expect(turns.compactions).toHaveLength(1);
    // The meter's reading is newer than the compaction (derived "after" or its own turn's).
    const marker = turns.compactions[0];
    expect(marker).toBeDefined();
    expect(usage.context.sequence).toBeGreaterThan(marker?.sequence ?? Number.MAX_SAFE_INTEGER);

    // The compaction is lossy: its audit shows the last request and a file dropped.
    const compactionId = turns.compactions[0]?.compaction_id ?? "";
    const audit = daemon.ledger.audits.audit(sessionId, compactionId, []);
    expect(audit?.summary_readable).toBe(true);
    expect(audit?.items).toContainEqual(
      expect.objectContaining({ kind: "last_request", status: "dropped" }),
    );
    expect(audit?.items[0]?.status).toBe("dropped");
    expect(audit?.items).toContainEqual(
      expect.objectContaining({
        kind: "path",
        label: "src/features/context/meter.test.tsx",
        status: "dropped",
      }),
    );
    expect(audit?.items).toContainEqual(
      expect.objectContaining({ kind: "instruction", status: "kept" }),
    );

    expect(await ensureWelcomeSession(deps)).toBeUndefined();
    expect(daemon.ledger.store.listSessions({})).toHaveLength(1);
  });
});
