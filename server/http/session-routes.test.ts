import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CancelAccepted, CompactAccepted, PromptAccepted } from "../../src/contract/commands";
import { ErrorEnvelope } from "../../src/contract/error";
import { EventList, History } from "../../src/contract/history";
import { SessionEnvelope, SessionList, WorkspaceList } from "../../src/contract/session";
import { TranscriptPage } from "../../src/contract/transcript";
import { UsageEnvelope, UsageTurns } from "../../src/contract/usage";
import { REFUSAL_MESSAGES } from "../acp/session-refusal";
import { requestedByOf } from "./session-routes";
import { demoAgent, startTestDaemon, type TestDaemon } from "./test-daemon";

async function refusal(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = ErrorEnvelope.parse(await response.json());
  expect(body.code).toBe(code);
  return body;
}

describe("sessions and turns over HTTP, with the demo agent as a real process", () => {
  let daemon: TestDaemon;

  beforeAll(async () => {
    daemon = await startTestDaemon({
      agents: [
        { ...demoAgent(process.env.TMPDIR ?? "/tmp"), name: "demo" },
        { ...demoAgent(process.env.TMPDIR ?? "/tmp", "plain", ["--commands", "none"]) },
        { ...demoAgent(process.env.TMPDIR ?? "/tmp", "compress", ["--commands", "compress"]) },
      ],
    });
  });
  afterAll(() => daemon.stop());

  it("when workspaces are listed, then the configured workspace is there", async () => {
    const body = WorkspaceList.parse(await (await daemon.call("GET", "/api/workspaces")).json());
    expect(body.workspaces.map((w) => w.id)).toEqual([daemon.ws]);
  });

  it("when a session is created, then 201 with a starting session that becomes active with commands", async () => {
    const response = await daemon.call("POST", `/api/workspaces/${daemon.ws}/sessions`, {
      body: { name: "first" },
    });
    expect(response.status).toBe(201);
    const { session } = SessionEnvelope.parse(await response.json());
    expect(session).toMatchObject({ agent_name: "demo", name: "first", workspace_id: daemon.ws });
    expect(["starting", "active"]).toContain(session.state);
    const active = await daemon.waitForSession(
      session.id,
      (s) => s.state === "active" && s.available_commands.length > 0,
    );
    const read = SessionEnvelope.parse(
      await (await daemon.call("GET", daemon.sessionPath(active.id))).json(),
    );
    expect(read.session.state).toBe("active");
    expect(read.session.available_commands.map((c) => c.name)).toContain("compact");
    expect(read.session.activity).toBeUndefined();
  });

  it("when a session is created in an unknown workspace, then 404", async () => {
    await refusal(
      await daemon.call("POST", "/api/workspaces/ws_nope/sessions", { body: {} }),
      404,
      "not_found",
    );
  });

  it("when a prompt is sent, then 202 at once, the turn shows as activity, and it completes in the ledger", async () => {
    const session = await daemon.createActiveSession();
    const response = await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt`, {
      body: { text: "hello there" },
    });
    expect(response.status).toBe(202);
    const accepted = PromptAccepted.parse(await response.json());
    expect(accepted.session_id).toBe(session.id);
    const running = daemon.host.findSession(session.id);
    expect(running?.activity).toMatchObject({ turn_id: accepted.prompt_id, kind: "prompt" });
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    const events = EventList.parse(
      await (
        await daemon.call(
          "GET",
          `${daemon.sessionPath(session.id)}/events?turn_id=${accepted.prompt_id}`,
        )
      ).json(),
    );
    const types = events.events.map((e) => e.type);
    expect(types[0]).toBe("input");
    expect(types[types.length - 1]).toBe("prompt.completed");
    expect(events.events[0]?.content).toMatchObject({ text: "hello there" });
    expect(events.events.at(-1)?.content).toMatchObject({ stop_reason: "end_turn" });
  });

  it("when a prompt is sent to a busy, stopped or unknown session, then the contract's refusals", async () => {
    const session = await daemon.createActiveSession();
    const path = `${daemon.sessionPath(session.id)}/prompt`;
    await refusal(
      await daemon.call("POST", `${daemon.sessionPath("ses_nope")}/prompt`, {
        body: { text: "x" },
      }),
      404,
      "not_found",
    );
    await refusal(await daemon.call("POST", path, { body: { text: "" } }), 400, "invalid_request");
    await refusal(
      await daemon.call("POST", path, { body: { text: "x".repeat(100_001) } }),
      400,
      "invalid_request",
    );
    expect((await daemon.call("POST", path, { body: { text: "/demo slow 2" } })).status).toBe(202);
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    expect(
      (await daemon.call("POST", `${daemon.sessionPath(session.id)}/compact`, { body: {} })).status,
    ).toBe(202);
    const busy = await refusal(
      await daemon.call("POST", path, { body: { text: "again" } }),
      409,
      "session_busy",
    );
    expect(busy.error).toBe(REFUSAL_MESSAGES.session_busy);
    const cancel = await daemon.call("POST", `${daemon.sessionPath(session.id)}/cancel`);
    expect(cancel.status).toBe(202);
    CancelAccepted.parse(await cancel.json());
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    await refusal(
      await daemon.call("POST", `${daemon.sessionPath(session.id)}/cancel`),
      409,
      "no_active_turn",
    );
    const stop = await daemon.call("POST", `${daemon.sessionPath(session.id)}/stop`);
    expect(stop.status).toBe(202);
    await daemon.waitForSession(session.id, (s) => s.state === "stopped");
    await refusal(
      await daemon.call("POST", path, { body: { text: "x" } }),
      400,
      "session_not_promptable",
    );
    await refusal(
      await daemon.call("POST", `${daemon.sessionPath(session.id)}/compact`, { body: {} }),
      400,
      "session_not_promptable",
    );
  });

  it("when two compact requests race on an idle session, then exactly one gets 202", async () => {
    const session = await daemon.createActiveSession();
    const path = `${daemon.sessionPath(session.id)}/compact`;
    const responses = await Promise.all([
      daemon.call("POST", path, { body: {}, headers: { "X-Compozy-Client-ID": "web-abc" } }),
      daemon.call("POST", path, { body: {}, headers: { "X-Compozy-Client-ID": "web-def" } }),
    ]);
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([202, 409]);
    const accepted = responses.find((r) => r.status === 202);
    const loser = responses.find((r) => r.status === 409);
    const body = CompactAccepted.parse(await accepted?.json());
    expect(body).toMatchObject({ session_id: session.id, command: "compact", status: "accepted" });
    expect((await refusal(loser as Response, 409, "session_busy")).error).toBe(
      REFUSAL_MESSAGES.session_busy,
    );
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    const events = EventList.parse(
      await (
        await daemon.call(
          "GET",
          `${daemon.sessionPath(session.id)}/events?turn_id=${body.prompt_id}`,
        )
      ).json(),
    );
    expect(events.events[0]).toMatchObject({
      type: "session.compaction.requested",
      content: { command: "compact", requested_by: "web" },
    });
    expect(events.events[1]).toMatchObject({
      type: "input",
      content: { text: "/compact", maintenance: true },
    });
    const compaction = events.events.filter((e) => e.type === "compaction").at(-1);
    expect(compaction?.content).toMatchObject({ status: "completed" });
  });

  it("when Compact now comes from a CLI or a plain client, then requested_by says so", async () => {
    const session = await daemon.createActiveSession();
    const path = `${daemon.sessionPath(session.id)}/compact`;
    for (const [headers, expected] of [
      [{ "User-Agent": "tideline-cli/1.0" }, "cli"],
      [{ "User-Agent": "curl/8" }, "http"],
    ] as const) {
      const response = await daemon.call("POST", path, { body: {}, headers });
      const { prompt_id } = CompactAccepted.parse(await response.json());
      await daemon.waitForSession(session.id, (s) => s.activity === undefined);
      const events = EventList.parse(
        await (
          await daemon.call(
            "GET",
            `${daemon.sessionPath(session.id)}/events?type=session.compaction.requested&turn_id=${prompt_id}`,
          )
        ).json(),
      );
      expect(events.events[0]?.content).toMatchObject({ requested_by: expected });
    }
  });

  it("when the agent advertises only compress, then Compact now sends /compress", async () => {
    const session = await daemon.createActiveSession("compress");
    const response = await daemon.call("POST", `${daemon.sessionPath(session.id)}/compact`, {
      body: {},
    });
    expect(CompactAccepted.parse(await response.json()).command).toBe("compress");
  });

  it("when the agent advertises no compaction command, then 409 compaction_unsupported", async () => {
    const session = await daemon.createActiveSession("plain");
    const body = await refusal(
      await daemon.call("POST", `${daemon.sessionPath(session.id)}/compact`, { body: {} }),
      409,
      "compaction_unsupported",
    );
    expect(body.error).toBe(REFUSAL_MESSAGES.compaction_unsupported);
  });

  it("when the compact body has a field, then 400; an unknown session is 404 first", async () => {
    const session = await daemon.createActiveSession();
    await refusal(
      await daemon.call("POST", `${daemon.sessionPath(session.id)}/compact`, {
        body: { now: true },
      }),
      400,
      "invalid_request",
    );
    await refusal(
      await daemon.call("POST", `${daemon.sessionPath("ses_nope")}/compact`, {
        body: { now: true },
      }),
      404,
      "not_found",
    );
    await refusal(
      await daemon.call("POST", `/api/workspaces/ws_other/sessions/${session.id}/compact`, {
        body: {},
      }),
      404,
      "not_found",
    );
  });

  it("when a session is stopped and started again, then it is active again and the load replay is not re-recorded", async () => {
    const session = await daemon.createActiveSession();
    await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt`, {
      body: { text: "remember me" },
    });
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    await daemon.call("POST", `${daemon.sessionPath(session.id)}/stop`);
    await daemon.waitForSession(session.id, (s) => s.state === "stopped");
    const conversation = () =>
      daemon.ledger.reader
        .transcriptPage(session.id, { limit: 1000 })
        .entries.filter((entry) => entry.message.role !== "system");
    const before = conversation();
    const start = await daemon.call("POST", `${daemon.sessionPath(session.id)}/start`);
    expect(start.status).toBe(202);
    await daemon.waitForSession(session.id, (s) => s.state === "active");
    // The demo agent replays the whole conversation during session/load; none of it may land.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(conversation()).toEqual(before);
    const history = History.parse(
      await (await daemon.call("GET", `${daemon.sessionPath(session.id)}/history`)).json(),
    );
    const all = history.history.flatMap((group) => group.events);
    expect(all.filter((e) => e.type === "input")).toHaveLength(1);
    expect(all.filter((e) => e.type === "session.state").map((e) => e.content.state)).toEqual([
      "starting",
      "active",
      "stopping",
      "stopped",
      "starting",
      "active",
    ]);
  });

  it("when sessions are listed with filters and pages, then the page info is right", async () => {
    const all = SessionList.parse(await (await daemon.call("GET", "/api/sessions")).json());
    expect(all.page.total).toBe(all.sessions.length);
    const activity = all.sessions.map((s) => s.updated_at);
    expect(activity).toEqual([...activity].sort().reverse());
    expect(all.page).not.toHaveProperty("next_cursor");
    expect(all.sessions.length).toBeGreaterThan(3);
    const first = SessionList.parse(
      await (await daemon.call("GET", "/api/sessions?limit=2")).json(),
    );
    expect(first.page).toMatchObject({ has_more: true, limit: 2, total: all.page.total });
    const second = SessionList.parse(
      await (
        await daemon.call("GET", `/api/sessions?limit=2&cursor=${first.page.next_cursor}`)
      ).json(),
    );
    expect(second.sessions.map((s) => s.id)).toEqual(all.sessions.slice(2, 4).map((s) => s.id));
    const stopped = SessionList.parse(
      await (await daemon.call("GET", `/api/sessions?state=stopped&workspace=${daemon.ws}`)).json(),
    );
    expect(stopped.sessions.every((s) => s.state === "stopped")).toBe(true);
    const none = SessionList.parse(
      await (await daemon.call("GET", "/api/sessions?workspace=ws_nope")).json(),
    );
    expect(none.page.total).toBe(0);
  });

  it("when the read endpoints are asked, then each answers its contract shape", async () => {
    const session = await daemon.createActiveSession();
    const path = daemon.sessionPath(session.id);
    await daemon.call("POST", `${path}/prompt`, { body: { text: "/demo fill 40" } });
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    await daemon.call("POST", `${path}/compact`, { body: {} });
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);

    const page = TranscriptPage.parse(
      await (await daemon.call("GET", `${path}/transcript?limit=2`)).json(),
    );
    expect(page.entries).toHaveLength(2);
    expect(page.has_older).toBe(true);
    const older = TranscriptPage.parse(
      await (
        await daemon.call(
          "GET",
          `${path}/transcript?limit=1000&before_sequence=${page.next_before_sequence}`,
        )
      ).json(),
    );
    expect(older.entries.every((e) => e.start_sequence < (page.next_before_sequence ?? 0))).toBe(
      true,
    );
    await refusal(await daemon.call("GET", `${path}/transcript?limit=0`), 400, "invalid_request");
    await refusal(
      await daemon.call("GET", `${path}/transcript?before_sequence=-4`),
      400,
      "invalid_request",
    );

    // The demo agent reports a fresh reading right after its compaction.
    const usage = UsageEnvelope.parse(await (await daemon.call("GET", `${path}/usage`)).json());
    expect(usage.usage.context.state).toBe("reported");
    expect(usage.usage.turn_count).toBe(2);
    const turns = UsageTurns.parse(await (await daemon.call("GET", `${path}/usage/turns`)).json());
    expect(turns.compactions).toHaveLength(1);
    expect(turns.compactions[0]).toMatchObject({ trigger: "requested", status: "completed" });
    expect(turns.compactions[0]?.context_after?.sequence).toBe(usage.usage.context.sequence);

    const history = History.parse(await (await daemon.call("GET", `${path}/history`)).json());
    expect(history.history.length).toBeGreaterThan(1);
    const events = EventList.parse(
      await (await daemon.call("GET", `${path}/events?limit=3&after_sequence=1`)).json(),
    );
    expect(events.events).toHaveLength(3);
    expect(events.has_more).toBe(true);
    expect(events.events[0]?.sequence).toBe(2);
    await refusal(await daemon.call("GET", `${path}/events?limit=1001`), 400, "invalid_request");
    await refusal(await daemon.call("GET", `${path}/history?turn=1`), 400, "invalid_request");
    await refusal(
      await daemon.call("GET", `${daemon.sessionPath("ses_nope")}/usage`),
      404,
      "not_found",
    );
  });
});

describe("requested_by attribution", () => {
  it("when the client id starts with web-, then web, whatever the User-Agent", () => {
    expect(requestedByOf("web-1a2b", "tideline-cli/1")).toBe("web");
  });

  it("when the User-Agent starts with tideline-cli or compozy-cli, then cli", () => {
    expect(requestedByOf(undefined, "tideline-cli/0.1")).toBe("cli");
    expect(requestedByOf("script-1", "compozy-cli/2.0 (linux)")).toBe("cli");
  });

  it("when neither matches, then http; the prefixes are exact", () => {
    expect(requestedByOf(undefined, undefined)).toBe("http");
    expect(requestedByOf("Web-1", "Mozilla/5.0 tideline-cli")).toBe("http");
    expect(requestedByOf("webby", "curl/8")).toBe("http");
  });
});
