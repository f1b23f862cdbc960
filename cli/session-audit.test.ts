// `tideline session audit` against the real daemon and demo agent (a lossy compaction), and
// against a small stand-in daemon for what the reference daemon cannot yet produce on its
// own (a dropped pin, hostile labels) and for a daemon without the route.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliIn } from "../server/testing/cli-runner";
import { startTestDaemon, type TestDaemon } from "../server/testing/daemon";
import { compactAndWait, promptAndWait } from "../server/testing/session-driver";

let daemon: TestDaemon;
let api: string;
let id: string;
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for terminal escapes
const ESCAPE = /\u001b\[/;

beforeAll(async () => {
  daemon = await startTestDaemon();
  api = await daemon.listen();
  id = (await daemon.createActiveSession()).id;
  await promptAndWait(daemon, id, "/demo lossy");
  await promptAndWait(daemon, id, "Build a CSV export for the invoices table");
  await promptAndWait(daemon, id, "Now add a download button in web/src/invoices/page.tsx");
  await compactAndWait(daemon, id);
});
afterAll(() => daemon?.stop());

describe("tideline session audit", () => {
  it("when the newest compaction dropped the last request, then it prints the span, the counts and the dropped items first; exit 0", async () => {
    const run = await cliIn(api, ["session", "audit", id]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^Compaction cmp-\d+ · replaced turns 1–3 · \d+ messages$/);
    expect(lines[1]).toMatch(/^The summary kept \d+ of \d+ · \d+ dropped$/);
    expect(run.stdout).toMatch(/dropped\s+last_request\s+Now add a download button/);
    expect(run.stdout.indexOf("dropped")).toBeLessThan(run.stdout.indexOf("kept  "));
  });

  it("when -o json and --compaction, then it prints the daemon's audit as JSON", async () => {
    const first = JSON.parse((await cliIn(api, ["session", "audit", id, "-o", "json"])).stdout);
    const run = await cliIn(api, [
      "session",
      "audit",
      id,
      "--compaction",
      first.compaction_id,
      "--json",
    ]);
    expect(run.code).toBe(0);
    const audit = JSON.parse(run.stdout);
    expect(audit.session_id).toBe(id);
    expect(audit.counts.dropped).toBeGreaterThan(0);
    expect(audit.items[0].status).toBe("dropped");
  });

  it("when the compaction is unknown or --compaction is blank, then it fails with a message", async () => {
    const unknown = await cliIn(api, ["session", "audit", id, "--compaction", "nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("error: compaction not found\n");
    expect((await cliIn(api, ["session", "audit", id, "--compaction", " "])).code).toBe(2);
  });

  it("when --help, then it documents exit code 6", async () => {
    const run = await cliIn(api, ["session", "audit", "--help"]);
    expect(run.stdout).toContain("Exits 6 when the summary dropped a message the person pinned");
  });
});

/** A session as the contract reads it (the CLI parses every answer with src/contract/). */
const STAND_IN_SESSION = {
  id: "s1",
  workspace_id: "w1",
  agent_name: "demo",
  state: "active",
  available_commands: [],
  created_at: "2026-12-01T08:00:00Z",
  updated_at: "2026-12-01T08:00:00Z",
};

describe("tideline session audit against a stand-in daemon", () => {
  let server: Server;
  let base: string;
  let auditRoute = true;
  const audit = {
    session_id: "s1",
    compaction_id: "c1",
    summary_readable: true,
    span: {
      first_turn_id: "t2",
      last_turn_id: "t2",
      first_turn_number: 2,
      last_turn_number: 2,
      first_entry_id: "u1",
      turns: 1,
      messages: 3,
    },
    items: [
      {
        key: "instruction:u1",
        kind: "pinned",
        label: "\u001b[31mKeep this\u001b[0m: <script>alert(1)</script>\nsecond line",
        status: "dropped",
        why: "the summary has 0 of 3 distinctive words",
        entry_id: "u1",
        mentions: 1,
        pinned: true,
        by_person: true,
      },
    ],
    counts: { total: 1, kept: 0, dropped: 1, unchecked: 0 },
    omitted: 0,
    pinned_dropped: ["instruction:u1"],
    previous: null,
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const url = request.url ?? "";
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { "Content-Type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (url === "/api/sessions/s1") return json(200, { session: STAND_IN_SESSION });
      if (url === "/api/workspaces/w1/sessions/s1/compactions/c1/audit" && auditRoute) {
        return json(200, audit);
      }
      response.writeHead(404, { "Content-Type": "text/plain" });
      response.end("404 page not found");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("when a pinned message was dropped, then it exits 6 and no terminal escape or line break of a label reaches the terminal", async () => {
    const run = await cliIn(base, ["session", "audit", "s1", "--compaction", "c1"]);
    expect(run.code).toBe(6);
    expect(run.stdout).toContain("Pinned and dropped: 1");
    expect(run.stdout).toMatch(
      /dropped\s+pinned\s+\[31mKeep this \[0m: <script>alert\(1\)<\/script> second line/,
    );
    expect(run.stdout).not.toMatch(ESCAPE);
    const json = await cliIn(base, ["session", "audit", "s1", "--compaction", "c1", "-o", "json"]);
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stdout).pinned_dropped).toEqual(["instruction:u1"]);
  });

  it("when the daemon has no audit route (CompozyOS), then it says so and exits 1", async () => {
    auditRoute = false;
    const run = await cliIn(base, ["session", "audit", "s1", "--compaction", "c1"]);
    auditRoute = true;
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "error: this daemon does not serve the compaction audit (a Tideline extension)\n",
    );
  });
});
