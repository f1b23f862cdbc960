// `tideline sessions`, `session usage|history|events|prompt` against the real daemon and
// demo agent, in every output format; colour, tokens and an unreachable daemon.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { decode as decodeToon } from "@toon-format/toon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliIn } from "../server/testing/cli-runner";
import { startTestDaemon, type TestDaemon } from "../server/testing/daemon";

let daemon: TestDaemon;
let api: string;
let id: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// biome-ignore lint/suspicious/noExplicitAny: the daemon's JSON, compared as it is
async function daemonJson(path: string): Promise<any> {
  return (await daemon.call("GET", path)).json();
}

const lines = (text: string) => text.trimEnd().split("\n");
const jsonLines = (text: string) => lines(text).map((line) => JSON.parse(line));
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for terminal escapes
const ESCAPE = /\u001b\[/;

beforeAll(async () => {
  daemon = await startTestDaemon();
  api = await daemon.listen();
  id = (await daemon.createActiveSession()).id;
  // One ordinary turn, then one requested compaction: a little of everything.
  expect(
    (await cliIn(api, ["session", "prompt", id, "Hello, what is in src/app.ts?", "--wait"])).code,
  ).toBe(0);
  expect((await cliIn(api, ["session", "compact", id])).code).toBe(0);
});
afterAll(() => daemon?.stop());

describe("tideline session prompt", () => {
  it("when --wait, then the agent's reply is printed and the turn's end reported; -o json adds the stop reason", async () => {
    const human = await cliIn(api, ["session", "prompt", id, "Tell me about README.md", "--wait"]);
    expect(human.code).toBe(0);
    expect(human.stdout.length).toBeGreaterThan(20);
    expect(human.stderr).toMatch(/^Prompt accepted \(turn [\w-]+\)\nTurn ended: end_turn\n$/);
    const json = await cliIn(api, [
      "session",
      "prompt",
      id,
      "And package.json?",
      "--wait",
      "-o",
      "json",
    ]);
    expect(JSON.parse(json.stdout)).toEqual({
      session_id: id,
      prompt_id: expect.any(String),
      status: "ended",
      stop_reason: "end_turn",
    });
  });

  it("when -o jsonl --wait, then each event of the turn is one line, ending with the turn's end", async () => {
    const run = await cliIn(api, ["session", "prompt", id, "One more", "--wait", "-o", "jsonl"]);
    const events = jsonLines(run.stdout);
    const turnIds = new Set(events.map((event) => event.turn_id));
    expect(turnIds.size).toBe(1);
    expect(events[0]?.type).toBe("input");
    expect(events.at(-1)?.type).toBe("prompt.completed");
  });

  it("when not waiting, then only the acceptance", async () => {
    const run = await cliIn(api, ["session", "prompt", id, "Quick one", "-o", "json"]);
    expect(JSON.parse(run.stdout)).toEqual({
      session_id: id,
      prompt_id: expect.any(String),
      status: "accepted",
    });
    await daemon.waitForSession(id, (session) => session.activity === undefined);
  });
});

describe("tideline sessions", () => {
  it("when listing, then a table without colour off a terminal, JSON with every page, one line per session, or TOON", async () => {
    const human = await cliIn(api, ["sessions"]);
    expect(human.code).toBe(0);
    expect(lines(human.stdout)[0]).toMatch(/^ID\s+AGENT\s+STATE\s+RUNNING TURN\s+NAME\s+UPDATED$/);
    expect(human.stdout).toContain(id);
    expect(human.stdout).not.toMatch(ESCAPE);
    const json = JSON.parse((await cliIn(api, ["sessions", "-o", "json"])).stdout);
    expect(json.sessions.map((session: { id: string }) => session.id)).toContain(id);
    const jsonl = jsonLines((await cliIn(api, ["sessions", "-o", "jsonl"])).stdout);
    expect(jsonl).toEqual(json.sessions);
    const toon = decodeToon((await cliIn(api, ["sessions", "-o", "toon"])).stdout) as {
      sessions: { id: string }[];
    };
    expect(toon.sessions[0]?.id).toBe(id);
    const active = JSON.parse(
      (await cliIn(api, ["sessions", "--state", "stopped", "--json"])).stdout,
    );
    expect(active.sessions).toEqual([]);
  });

  it("when on a terminal, then headers are bold; with NO_COLOR they are not", async () => {
    expect((await cliIn(api, ["sessions"], { tty: true })).stdout).toMatch(ESCAPE);
    expect(
      (await cliIn(api, ["sessions"], { tty: true, env: { NO_COLOR: "1" } })).stdout,
    ).not.toMatch(ESCAPE);
  });
});

describe("tideline session usage", () => {
  it("when asked for the session, then the context and counters, or the daemon's usage object", async () => {
    const human = await cliIn(api, ["session", "usage", id]);
    expect(human.stdout).toMatch(/^Context\s+[\d,]+ \/ 200,000 tokens \(\d+ %\), reported$/m);
    expect(human.stdout).toMatch(/^Turns\s+\d+$/m);
    const json = JSON.parse((await cliIn(api, ["session", "usage", id, "-o", "json"])).stdout);
    expect(json).toEqual((await daemonJson(`${daemon.sessionPath(id)}/usage`)).usage);
    const jsonl = jsonLines((await cliIn(api, ["session", "usage", id, "-o", "jsonl"])).stdout);
    expect(jsonl).toEqual([json]);
    const toon = decodeToon((await cliIn(api, ["session", "usage", id, "-o", "toon"])).stdout);
    expect(toon).toEqual({ session_usage: json });
  });

  it("when --turns, then one row per turn and one marker per compaction, with its trigger", async () => {
    const human = await cliIn(api, ["session", "usage", id, "--turns"]);
    expect(human.stdout).toMatch(/^TURN\s+SEQ\s+INPUT\s+OUTPUT\s+CONTEXT\s+COST$/m);
    expect(human.stdout).toMatch(
      /^COMPACTION\s+TURN\s+SEQ\s+AT\s+TRIGGER\s+STATUS\s+CONTEXT BEFORE\s+CONTEXT AFTER$/m,
    );
    expect(human.stdout).toMatch(/^cmp-1\s.*\srequested\s+completed\s/m);
    const json = JSON.parse(
      (await cliIn(api, ["session", "usage", id, "--turns", "-o", "json"])).stdout,
    );
    // The after figure is the reading the demo agent reported in the compaction's own turn.
    const [marker] = json.compactions;
    const own = json.turns.find((turn: { turn_id: string }) => turn.turn_id === marker.turn_id);
    expect(marker.context_after.used).toBe(own.usage.context_used);
    const after = `${own.usage.context_used.toLocaleString("en-US")} / 200,000`;
    expect(human.stdout).toMatch(new RegExp(`^cmp-1\\s.*\\scompleted\\s.*\\s${after}$`, "m"));
    expect(json).toEqual(await daemonJson(`${daemon.sessionPath(id)}/usage/turns`));
    const jsonl = jsonLines(
      (await cliIn(api, ["session", "usage", id, "--turns", "-o", "jsonl"])).stdout,
    );
    expect(jsonl.filter((line) => "compaction" in line)).toEqual(
      json.compactions.map((compaction: unknown) => ({ compaction })),
    );
    expect(jsonl.filter((line) => "turn" in line)).toHaveLength(json.turns.length);
  });
});

describe("tideline session history and events", () => {
  it("when reading history, then the daemon's turn groups as JSON and one row per event otherwise", async () => {
    const json = JSON.parse((await cliIn(api, ["session", "history", id, "-o", "json"])).stdout);
    expect(json).toEqual(await daemonJson(`${daemon.sessionPath(id)}/history`));
    const jsonl = jsonLines((await cliIn(api, ["session", "history", id, "-o", "jsonl"])).stdout);
    const count = json.history.reduce(
      (n: number, group: { events: unknown[] }) => n + group.events.length,
      0,
    );
    expect(jsonl).toHaveLength(count);
    const human = await cliIn(api, ["session", "history", id]);
    expect(lines(human.stdout)).toHaveLength(count + 1);
    expect(human.stdout).toMatch(/^\d+\s+\S+\s+session\.compaction_fired\s/m);
  });

  it("when filtering events by type and turn, then only those, in every format", async () => {
    const fired = await cliIn(api, [
      "session",
      "events",
      id,
      "--type",
      "session.compaction_fired",
      "-o",
      "json",
    ]);
    const { events } = JSON.parse(fired.stdout);
    expect(events).toHaveLength(1);
    const turn = events[0].turn_id;
    const jsonl = jsonLines(
      (await cliIn(api, ["session", "events", id, "--turn", turn, "-o", "jsonl"])).stdout,
    );
    expect(new Set(jsonl.map((event) => event.turn_id))).toEqual(new Set([turn]));
    expect(jsonl.map((event) => event.type)).toContain("session.compaction.requested");
    const human = await cliIn(api, ["session", "events", id, "--type", "session.compaction_fired"]);
    expect(lines(human.stdout)).toHaveLength(2);
    expect(human.stdout).toContain('"trigger":"requested"');
    const none = await cliIn(api, ["session", "events", id, "--type", "no.such.type"]);
    expect(none.stdout).toBe("No events.\n");
    const toon = decodeToon(
      (
        await cliIn(api, [
          "session",
          "events",
          id,
          "--type",
          "session.compaction_fired",
          "-o",
          "toon",
        ])
      ).stdout,
    ) as { events: unknown[] };
    expect(toon.events).toHaveLength(1);
  });

  it("when an option is malformed, then a usage error and exit 2, and nothing is sent", async () => {
    const run = await cliIn(api, ["session", "events", id, "--after", "-3"]);
    expect(run.code).toBe(2);
    const format = await cliIn(api, ["sessions", "-o", "yaml"]);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/yaml/);
    const missing = await cliIn(api, ["session", "compact"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing required argument/);
  });
});

describe("connection and auth", () => {
  it("when nothing listens, then one line naming the address, exit 1; with -o json a JSON error", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const run = await cliIn(closed, ["sessions"]);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: `error: cannot reach the daemon at ${closed} (connection refused)\n`,
    });
    const json = await cliIn(closed, ["session", "usage", "x", "-o", "json"]);
    expect(JSON.parse(json.stderr)).toEqual({
      error: `cannot reach the daemon at ${closed} (connection refused)`,
      code: "daemon_unreachable",
    });
  });

  it("when the daemon needs a token, then it is refused without one and works with --token or TIDELINE_TOKEN", async () => {
    const guarded = await startTestDaemon({ token: "s3cret" });
    try {
      const url = await guarded.listen();
      const refused = await cliIn(url, ["sessions"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error: .+\n$/);
      expect((await cliIn(url, ["--token", "s3cret", "sessions"])).stdout).toBe("No sessions.\n");
      expect((await cliIn(url, ["sessions"], { env: { TIDELINE_TOKEN: "s3cret" } })).code).toBe(0);
    } finally {
      await guarded.stop();
    }
  });

  it.each([
    [
      "not JSON",
      200,
      "text/html",
      "<html>hello</html>",
      /^error: unexpected answer to GET \/api\/sessions\?limit=100 \(body: /,
    ],
    [
      "the wrong shape",
      200,
      "application/json",
      '{"sessions":[{"id":7}]}',
      /^error: unexpected answer to GET .* \(sessions\.0\.id: /,
    ],
    [
      "an error page",
      502,
      "text/html",
      "<h1>Bad gateway</h1>",
      /^error: GET \/api\/sessions\?limit=100 answered HTTP 502$/,
    ],
    [
      "an error whose message carries terminal escapes",
      409,
      "application/json",
      '{"error":"busy\\u001b[2J","code":"session_busy"}',
      /^error: busy \[2J$/,
    ],
  ])(
    "when the server answers %s, then a one-line error, not a crash",
    async (_label, status, type, body, message) => {
      const server = createServer((_req, res) => {
        res.writeHead(status, { "Content-Type": type });
        res.end(body);
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const run = await cliIn(url, ["sessions"]);
        expect(run.code).toBe(status === 409 ? 3 : 1);
        expect(run.stdout).toBe("");
        expect(lines(run.stderr)).toHaveLength(1);
        expect(run.stderr.trimEnd()).toMatch(message);
      } finally {
        server.close();
      }
    },
  );
});
