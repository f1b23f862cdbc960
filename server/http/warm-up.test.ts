// Warm start (ADR 0212): the reads the daemon sends itself before it says it listens, and
// a fresh daemon process answering its first transcript request about as fast as later ones.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startDaemon } from "../../e2e/daemon";
import { firstPaintReads } from "../../src/contract/first-paint";
import { openLedger } from "../ledger/open-ledger";
import { selfBase, WARM_UP_PASSES, warmReadPath, warmUpPaths } from "./warm-up";

const dir = mkdtempSync(join(tmpdir(), "tideline-warm-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ledgerWithSessions(count: number) {
  let clock = Date.parse("2026-01-01T00:00:00Z");
  const now = () => {
    clock += 1000;
    return new Date(clock);
  };
  const ledger = openLedger(":memory:", { now });
  const ws = ledger.store.ensureWorkspace(dir, "warm");
  const ids = Array.from({ length: count }, (_, i) =>
    ledger.store.createSession({ workspaceId: ws.id, agentName: "demo", name: `s${i}` }),
  );
  return { ledger, ws, ids };
}

describe("the warm-up reads", () => {
  it("when sessions exist, then the newest one's first-paint reads, usage and the session list are warmed", () => {
    const { ledger, ws, ids } = ledgerWithSessions(2);
    const newest = ids[1];
    if (!newest) throw new Error("no session");
    ledger.recorder.recordState(newest.id, "active");
    const paths = warmUpPaths(ledger.store);
    for (const read of firstPaintReads(ws.id, newest.id)) expect(paths).toContain(read);
    expect(paths).toContain(`/w/${ws.id}/s/${newest.id}`);
    expect(paths).toContain("/api/sessions?limit=100");
    ledger.close();
  });

  it("when there is no session yet, then an unknown one still runs the path", () => {
    const { ledger } = ledgerWithSessions(0);
    expect(warmUpPaths(ledger.store)).toContain(firstPaintReads("ws_warm", "ses_warm")[1]);
    ledger.close();
  });

  it("when warming, then each read is sent every pass, with the token when one is set", async () => {
    const { ledger } = ledgerWithSessions(1);
    const sent: { path: string; auth: string | undefined }[] = [];
    await warmReadPath(
      (path, init) => {
        sent.push({ path, auth: (init.headers as Record<string, string>).Authorization });
        return new Response("{}");
      },
      ledger.store,
      { token: "secret", log: () => undefined },
    );
    const paths = warmUpPaths(ledger.store);
    expect(sent).toHaveLength(paths.length * WARM_UP_PASSES);
    expect(new Set(sent.map((s) => s.path))).toEqual(new Set(paths));
    expect(sent.every((s) => s.auth === "Bearer secret")).toBe(true);
    ledger.close();
  });

  it("when the daemon cannot reach itself, then the warm-up is skipped with a log line, not an error", async () => {
    const { ledger } = ledgerWithSessions(1);
    const lines: string[] = [];
    await warmReadPath(() => Promise.reject(new Error("ECONNREFUSED")), ledger.store, {
      log: (line) => lines.push(line),
    });
    expect(lines).toEqual(["tideline: warm-up skipped: Error: ECONNREFUSED"]);
    ledger.close();
  });

  it("when the daemon binds a wildcard or an IPv6 address, then it reaches itself on loopback or in brackets", () => {
    expect(selfBase("0.0.0.0", 80)).toBe("http://127.0.0.1:80");
    expect(selfBase("::", 81)).toBe("http://[::1]:81");
    expect(selfBase("::1", 82)).toBe("http://[::1]:82");
    expect(selfBase("127.0.0.1", 83)).toBe("http://127.0.0.1:83");
  });
});

describe("a freshly started daemon", () => {
  it("when it says it listens, then its first transcript request takes about its steady-state time", async () => {
    const dataDir = join(dir, "data");
    mkdirSync(dataDir, { recursive: true });
    const ledger = openLedger(join(dataDir, "tideline.db"));
    const ws = ledger.store.ensureWorkspace(join(dataDir, "workspace"), "warm");
    const session = ledger.store.createSession({ workspaceId: ws.id, agentName: "demo" });
    for (let turn = 1; turn <= 150; turn += 1) {
      ledger.recorder.recordInput(session.id, `t${turn}`, `Step ${turn}: read the **rows**`);
      ledger.recorder.recordUpdate(session.id, `t${turn}`, {
        sessionUpdate: "agent_message_chunk",
        messageId: `m${turn}`,
        content: { type: "text", text: `Turn ${turn}: done.` },
      });
    }
    ledger.close();
    // This process's own HTTP client is warmed on a bare server, not on the daemon.
    const bare = createServer((_request, response) => response.end("warm"));
    await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
    const { port } = bare.address() as AddressInfo;
    for (let i = 0; i < 20; i += 1) await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    bare.close();
    const daemon = await startDaemon(["--no-welcome"], { dataDir });
    try {
      const url = `${daemon.url}/api/workspaces/${ws.id}/sessions/${session.id}/transcript?limit=200`;
      const time = async () => {
        const start = performance.now();
        const response = await fetch(url);
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        return performance.now() - start;
      };
      const first = await time();
      const later: number[] = [];
      for (let i = 0; i < 15; i += 1) later.push(await time());
      const steady = later.sort((a, b) => a - b)[7] ?? Number.NaN;
      // Cold, this was 15–20× steady (hundreds of ms); the margin absorbs a shared machine.
      expect(first).toBeLessThan(3 * steady + 20);
    } finally {
      await daemon.stop();
    }
  }, 60_000);
});
