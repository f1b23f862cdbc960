import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CompactAccepted,
  DaemonCancelResult,
  DaemonPromptResultEnvelope,
  DerivePreview,
  SessionCommands,
} from "../../src/contract/commands";
import { ErrorEnvelope } from "../../src/contract/error";
import { DaemonEventList, DaemonHistory } from "../../src/contract/history";
import {
  DaemonSessionEnvelope,
  DaemonSessionList,
  DaemonWorkspaceList,
} from "../../src/contract/session";
import { DaemonTranscriptPage } from "../../src/contract/transcript";
import { contextAfterOf, DaemonUsageEnvelope, UsageTurns } from "../../src/contract/usage";
import { REFUSAL_MESSAGES } from "../acp/session-refusal";
import { demoAgent, startTestDaemon, type TestDaemon } from "../testing/daemon";
import { requestedByOf } from "./session-request";

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
    const body = DaemonWorkspaceList.parse(
      await (await daemon.call("GET", "/api/workspaces")).json(),
    );
    expect(body.workspaces.map((w) => w.id)).toEqual([daemon.ws]);
  });

  it("when a session is created with POST /api/sessions, then 201 with a starting session that becomes active with commands", async () => {
    const response = await daemon.call("POST", "/api/sessions", {
      body: { workspace: daemon.ws, name: "first" },
    });
    expect(response.status).toBe(201);
    const { session } = DaemonSessionEnvelope.parse(await response.json());
    expect(session).toMatchObject({ agent_name: "demo", name: "first", workspace_id: daemon.ws });
    expect(["starting", "active"]).toContain(session.state);
    const active = await daemon.waitForSession(
      session.id,
      (s) => s.state === "active" && s.available_commands.length > 0,
    );
    const read = DaemonSessionEnvelope.parse(
      await (await daemon.call("GET", daemon.sessionPath(active.id))).json(),
    );
    expect(read.session.state).toBe("active");
    expect(read.session.available_commands.map((c) => c.name)).toContain("compact");
    expect(read.session.activity).toBeUndefined();
  });

  it("when a session is created in an unknown workspace or with the old route or body, then 404 or 400", async () => {
    await refusal(
      await daemon.call("POST", "/api/sessions", { body: { workspace: "ws_nope" } }),
      404,
      "not_found",
    );
    await refusal(
      await daemon.call("POST", `/api/workspaces/${daemon.ws}/sessions`, { body: {} }),
      404,
      "not_found",
    );
    await refusal(
      await daemon.call("POST", "/api/sessions", { body: { workspace: daemon.ws, agent: "demo" } }),
      400,
      "invalid_request",
    );
    await refusal(
      await daemon.call("POST", "/api/sessions", { body: { agent_name: "nobody" } }),
      400,
      "invalid_request",
    );
    // By its root path, and with the only workspace implied.
    const byPath = await daemon.call("POST", "/api/sessions", {
      body: {
        workspace: daemon.host.getSession((await daemon.createActiveSession()).id).workspace_path,
      },
    });
    expect(byPath.status).toBe(201);
    expect((await daemon.call("POST", "/api/sessions", { body: {} })).status).toBe(201);
  });

  it("when a prompt is sent, then 200 with CompozyOS's result, the turn shows as activity, and it completes in the ledger", async () => {
    const session = await daemon.createActiveSession();
    const response = await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt`, {
      body: { message: "hello there", message_id: "m-1", idempotency_key: "k-1" },
    });
    expect(response.status).toBe(200);
    const { prompt } = DaemonPromptResultEnvelope.parse(await response.json());
    expect(prompt).toMatchObject({
      status: "accepted",
      delivery: "direct",
      message_id: "m-1",
      idempotency_key: "k-1",
      replayed: false,
    });
    const accepted = { prompt_id: prompt.new_turn_id ?? "" };
    const running = daemon.host.findSession(session.id);
    expect(running?.activity).toMatchObject({ turn_id: accepted.prompt_id, turn_source: "user" });
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    const events = DaemonEventList.parse(
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
    expect(events.events[0]?.content).toMatchObject({ text: "hello there", message_id: "m-1" });
    expect(events.events.at(-1)?.content).toMatchObject({ stop_reason: "end_turn" });
  });

  it("when a prompt is sent to a busy, stopped or unknown session, then the contract's refusals", async () => {
    const session = await daemon.createActiveSession();
    const path = `${daemon.sessionPath(session.id)}/prompt`;
    await refusal(await daemon.prompt("ses_nope", "x"), 404, "not_found");
    const ids = { message_id: "m", idempotency_key: "k" };
    await refusal(
      await daemon.call("POST", path, { body: { ...ids, message: "" } }),
      400,
      "invalid_request",
    );
    await refusal(
      await daemon.call("POST", path, { body: { ...ids, message: "x".repeat(100_001) } }),
      400,
      "invalid_request",
    );
    await refusal(await daemon.call("POST", path, { body: { text: "x" } }), 400, "invalid_request");
    await refusal(
      await daemon.call("POST", path, { body: { message: "no keys" } }),
      400,
      "invalid_request",
    );
    expect((await daemon.prompt(session.id, "/demo slow 2")).status).toBe(200);
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    expect(
      (await daemon.call("POST", `${daemon.sessionPath(session.id)}/compact`, { body: {} })).status,
    ).toBe(202);
    // While a turn runs a prompt waits its turn (ADR 0220; queue-routes.test.ts has the rest).
    const waiting = await daemon.prompt(session.id, "again");
    expect(waiting.status).toBe(202);
    expect(DaemonPromptResultEnvelope.parse(await waiting.json()).prompt.status).toBe("queued");
    const running = daemon.host.findSession(session.id)?.activity?.turn_id;
    // No body and no content type, as CompozyOS clients send it.
    const cancel = await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt/cancel`);
    expect(cancel.status).toBe(200);
    expect(DaemonCancelResult.parse(await cancel.json())).toEqual({
      session_id: session.id,
      outcome: "canceled",
      turn_id: running,
    });
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    const idle = await daemon.call("POST", `${daemon.sessionPath(session.id)}/prompt/cancel`);
    expect(idle.status).toBe(200);
    expect(DaemonCancelResult.parse(await idle.json())).toEqual({
      session_id: session.id,
      outcome: "nothing-in-flight",
    });
    expect((await daemon.call("POST", `${daemon.sessionPath(session.id)}/cancel`)).status).toBe(
      404,
    );
    const stop = await daemon.call("POST", `${daemon.sessionPath(session.id)}/stop`);
    expect(stop.status).toBe(204);
    await daemon.waitForSession(session.id, (s) => s.state === "stopped");
    await refusal(
      await daemon.call("POST", `${daemon.sessionPath(session.id)}/compact`, { body: {} }),
      400,
      "session_not_promptable",
    );
  });

  it("when a prompt is retried with the same idempotency key, then it is answered as replayed and runs once", async () => {
    const session = await daemon.createActiveSession();
    const body = { message: "only once", message_id: "m-once", idempotency_key: "k-once" };
    const path = `${daemon.sessionPath(session.id)}/prompt`;
    const first = await daemon.call("POST", path, { body });
    expect(first.status).toBe(200);
    const firstResult = DaemonPromptResultEnvelope.parse(await first.json()).prompt;
    // The real retry: while the turn runs, and again after it ended.
    const during = await daemon.call("POST", path, { body });
    expect(during.status).toBe(202);
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    const after = await daemon.call("POST", path, { body });
    expect(after.status).toBe(202);
    for (const response of [during, after]) {
      expect(DaemonPromptResultEnvelope.parse(await response.json()).prompt).toEqual({
        ...firstResult,
        replayed: true,
      });
    }
    // A replay that ran again would have recorded its input before answering and started a
    // turn: the session is idle, and the ledger holds one input.
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    const inputs = DaemonEventList.parse(
      await (
        await daemon.call("GET", `${daemon.sessionPath(session.id)}/events?type=input`)
      ).json(),
    );
    expect(inputs.events.map((e) => e.content.text)).toEqual(["only once"]);
    const conflict = await refusal(
      await daemon.call("POST", path, { body: { ...body, message: "something else" } }),
      409,
      "prompt_idempotency_conflict",
    );
    expect(conflict.error).toContain("k-once");
  });

  it("when a name or an agent's title carries terminal escapes or bidi overrides, then the API stores and shows it without them", async () => {
    const created = await daemon.call("POST", "/api/sessions", {
      body: { name: "\u001b]0;owned\u0007Build\u202e fix\u001b[2J" },
    });
    const session = DaemonSessionEnvelope.parse(await created.json()).session;
    expect(session.name).toBe("]0;ownedBuild fix[2J");
    const path = daemon.sessionPath(session.id);
    await refusal(
      await daemon.call("PATCH", path, { body: { name: "\u001b\u0007\u2066\u009b" } }),
      400,
      "invalid_request",
    );
    const untitled = await daemon.call("POST", "/api/sessions", { body: {} });
    const id = DaemonSessionEnvelope.parse(await untitled.json()).session.id;
    // The agent's title, as a session_info_update recorded it.
    daemon.ledger.recorder.recordUpdate(id, null, {
      sessionUpdate: "session_info_update",
      title: "Agent\u001b]8;;http://evil\u001b\\ title\u2067",
    });
    const shown = await daemon.call("GET", daemon.sessionPath(id));
    expect(DaemonSessionEnvelope.parse(await shown.json()).session.name).toBe(
      "Agent]8;;http://evil\\ title",
    );
  });

  it("when a session is renamed, archived, unarchived and deleted, then each answers as CompozyOS does", async () => {
    const session = await daemon.createActiveSession();
    const path = daemon.sessionPath(session.id);
    const renamed = await daemon.call("PATCH", path, { body: { name: "Renamed" } });
    expect(DaemonSessionEnvelope.parse(await renamed.json()).session.name).toBe("Renamed");
    await refusal(
      await daemon.call("PATCH", path, { body: { name: " " } }),
      400,
      "invalid_request",
    );
    await refusal(
      await daemon.call("PATCH", path, { body: { name: "x", state: "stopped" } }),
      400,
      "invalid_request",
    );
    // Only a stopped session can be archived.
    await refusal(await daemon.call("POST", `${path}/archive`), 409, "session_not_stopped");
    expect((await daemon.call("POST", `${path}/stop`)).status).toBe(204);
    await daemon.waitForSession(session.id, (s) => s.state === "stopped");
    const archived = DaemonSessionEnvelope.parse(
      await (await daemon.call("POST", `${path}/archive`)).json(),
    ).session;
    expect(archived.archived_at).toEqual(expect.any(String));
    const listed = async (query: string) =>
      DaemonSessionList.parse(
        await (await daemon.call("GET", `/api/sessions?limit=100${query}`)).json(),
      ).sessions.map((s) => s.id);
    expect(await listed("")).not.toContain(session.id);
    expect(await listed("&archive=only")).toEqual([session.id]);
    expect(await listed("&archive=include")).toContain(session.id);
    await refusal(await daemon.prompt(session.id, "hello?"), 409, "session_archived");
    const unarchived = DaemonSessionEnvelope.parse(
      await (await daemon.call("POST", `${path}/unarchive`)).json(),
    ).session;
    expect(unarchived.archived_at).toBeNull();
    expect(await listed("")).toContain(session.id);

    const deleted = await daemon.call("DELETE", path);
    expect(deleted.status).toBe(204);
    await refusal(await daemon.call("GET", path), 404, "not_found");
    await refusal(await daemon.call("GET", `${path}/events`), 404, "not_found");
    expect(daemon.ledger.reader.maxSequence(session.id)).toBe(0);
    await refusal(await daemon.call("DELETE", path), 404, "not_found");
  });

  it("when the command catalog is read, then it lists the agent's commands with a revision", async () => {
    const session = await daemon.createActiveSession();
    const catalog = SessionCommands.parse(
      await (await daemon.call("GET", `${daemon.sessionPath(session.id)}/commands`)).json(),
    );
    expect(catalog.commands.map((c) => c.canonical_token)).toContain("/compact");
    expect(catalog.commands.every((c) => c.available && c.lane === "agent")).toBe(true);
    expect(catalog.revision).toMatch(/^r-/);
    await refusal(
      await daemon.call("POST", `${daemon.sessionPath(session.id)}/approve`, {
        body: { decision: "allow-once", request_id: "r", turn_id: "t" },
      }),
      // No such pending request (ADR 0091; the flows are in acp/permission-flows.test.ts).
      404,
      "not_found",
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
    const events = DaemonEventList.parse(
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
      const events = DaemonEventList.parse(
        await (
          await daemon.call(
            "GET",
            `${daemon.sessionPath(session.id)}/events?type=session.compaction.requested&turn_id=${prompt_id}`,
          )
        ).json(),
      );
      expect(events.events[0]?.content).toMatchObject({ requested_by: expected });
      // The transcript's maintenance message says who asked, so the row can word it.
      const page = DaemonTranscriptPage.parse(
        await (
          await daemon.call("GET", `${daemon.sessionPath(session.id)}/transcript?limit=1000`)
        ).json(),
      );
      const opened = page.entries.find(
        (entry) =>
          entry.message.role === "user" &&
          (entry.message.metadata as { turn_id?: string } | undefined)?.turn_id === prompt_id,
      );
      expect(opened?.message.metadata).toMatchObject({ maintenance: true, requested_by: expected });
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

  it("when a stopped session gets a prompt, then it resumes with session/load, runs the turn, and the load replay is not re-recorded", async () => {
    const session = await daemon.createActiveSession();
    await daemon.prompt(session.id, "remember me");
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    await daemon.call("POST", `${daemon.sessionPath(session.id)}/stop`);
    await daemon.waitForSession(session.id, (s) => s.state === "stopped");
    const conversation = () =>
      daemon.ledger.reader
        .transcriptPage(session.id, { limit: 1000 })
        .entries.filter((entry) => entry.message.role !== "system");
    const before = conversation();
    expect((await daemon.call("POST", `${daemon.sessionPath(session.id)}/start`)).status).toBe(404);
    const resumed = await daemon.prompt(session.id, "and now?");
    expect(resumed.status).toBe(200);
    await daemon.waitForSession(session.id, (s) => s.state === "active");
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    // The demo agent replays the whole conversation during session/load; none of it may land.
    // No wait is needed for a late replay: the agent's lines are read in order, the replay
    // before the load's answer and that before the turn whose end was just awaited.
    const after = conversation();
    expect(after.slice(0, before.length)).toEqual(before);
    const added = after.slice(before.length).map((entry) => entry.message.role);
    expect(added[0]).toBe("user");
    expect(added.slice(1).length).toBeGreaterThan(0);
    expect(added.slice(1).every((role) => role === "assistant")).toBe(true);
    const history = DaemonHistory.parse(
      await (await daemon.call("GET", `${daemon.sessionPath(session.id)}/history`)).json(),
    );
    const all = history.history.flatMap((group) => group.events);
    expect(all.filter((e) => e.type === "input")).toHaveLength(2);
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
    const all = DaemonSessionList.parse(
      await (await daemon.call("GET", "/api/sessions?limit=100")).json(),
    );
    expect(all.page.total).toBe(all.sessions.length);
    const activity = all.sessions.map((s) => s.updated_at);
    expect(activity).toEqual([...activity].sort().reverse());
    expect(all.page).not.toHaveProperty("next_cursor");
    expect(all.sessions.length).toBeGreaterThan(3);
    for (const limit of ["0", "101", "200"]) {
      await refusal(
        await daemon.call("GET", `/api/sessions?limit=${limit}`),
        400,
        "invalid_request",
      );
    }
    expect((await daemon.call("GET", "/api/sessions?limit=100")).status).toBe(200);
    await refusal(await daemon.call("GET", "/api/sessions?cursor=o2"), 400, "invalid_request");
    const first = DaemonSessionList.parse(
      await (await daemon.call("GET", "/api/sessions?limit=2")).json(),
    );
    expect(first.page).toMatchObject({ has_more: true, limit: 2, total: all.page.total });
    const second = DaemonSessionList.parse(
      await (
        await daemon.call("GET", `/api/sessions?limit=2&cursor=${first.page.next_cursor}`)
      ).json(),
    );
    expect(second.sessions.map((s) => s.id)).toEqual(all.sessions.slice(2, 4).map((s) => s.id));
    const stopped = DaemonSessionList.parse(
      await (await daemon.call("GET", `/api/sessions?state=stopped&workspace=${daemon.ws}`)).json(),
    );
    expect(stopped.sessions.every((s) => s.state === "stopped")).toBe(true);
    // CompozyOS: an unknown workspace is 404, not an empty page.
    await refusal(await daemon.call("GET", "/api/sessions?workspace=ws_nope"), 404, "not_found");
  });

  it("when the read endpoints are asked, then each answers its contract shape", async () => {
    const session = await daemon.createActiveSession();
    const path = daemon.sessionPath(session.id);
    await daemon.prompt(session.id, "/demo fill 40");
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);
    await daemon.call("POST", `${path}/compact`, { body: {} });
    await daemon.waitForSession(session.id, (s) => s.activity === undefined);

    const page = DaemonTranscriptPage.parse(
      await (await daemon.call("GET", `${path}/transcript?limit=2`)).json(),
    );
    expect(page.entries).toHaveLength(2);
    expect(page.has_older).toBe(true);
    const older = DaemonTranscriptPage.parse(
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
    const usage = DaemonUsageEnvelope.parse(
      await (await daemon.call("GET", `${path}/usage`)).json(),
    );
    expect(usage.usage.context.state).toBe("reported");
    expect(usage.usage.turn_count).toBe(2);
    const turns = UsageTurns.parse(await (await daemon.call("GET", `${path}/usage/turns`)).json());
    expect(turns.compactions).toHaveLength(1);
    expect(turns.compactions[0]).toMatchObject({ trigger: "requested", status: "completed" });
    // The compaction's turn reported the fresh reading itself: that is its after (ADR 0121),
    // the same figure the meter shows now.
    const marker = turns.compactions[0];
    expect(marker && contextAfterOf(marker, turns)).toMatchObject({
      used: usage.usage.context.used,
      turn_id: marker?.turn_id,
    });

    const history = DaemonHistory.parse(await (await daemon.call("GET", `${path}/history`)).json());
    expect(history.history.length).toBeGreaterThan(1);
    // CompozyOS answers the newest `limit` matching events, oldest first, without has_more.
    const all = DaemonEventList.parse(await (await daemon.call("GET", `${path}/events`)).json());
    const events = DaemonEventList.parse(
      await (await daemon.call("GET", `${path}/events?limit=3&after_sequence=1`)).json(),
    );
    expect(events.events.map((e) => e.sequence)).toEqual(
      all.events.slice(-3).map((e) => e.sequence),
    );
    expect(events).not.toHaveProperty("has_more");
    expect(
      DerivePreview.parse(await (await daemon.call("GET", `${path}/derive/preview`)).json()),
    ).toMatchObject({ truncated: true, omitted_count: 0 }); // the /demo fill reply is cut to 16 KiB
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
