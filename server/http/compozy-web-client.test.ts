// CompozyOS's own web client against the reference daemon: its exact requests, its
// schemas, and its transcript parser (the AI SDK's), on the welcome session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GATEWAY_TIER_HEADER } from "../../src/contract/compozy-surfaces";
import {
  CompozyAnswers,
  type CompozyWebRequest,
  compozyWebRequests,
  parseLikeCompozyWeb,
} from "../testing/compozy-web";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { openSse } from "../testing/sse-reader";
import { ensureWelcomeSession } from "../welcome/welcome-session";

type Page = { entries: { message: { id: string; role: string } }[]; has_older: boolean };

describe("CompozyOS's web against the reference daemon", () => {
  let daemon: TestDaemon;
  let sessionId: string;
  let requests: CompozyWebRequest[];

  async function send(request: CompozyWebRequest): Promise<Response> {
    return daemon.call(request.method, request.path, {
      ...(request.body === undefined ? {} : { body: request.body }),
      headers: { "X-Compozy-Client-ID": "web-compozy" },
    });
  }

  async function wholeTranscript(): Promise<Page["entries"]> {
    const response = await daemon.call(
      "GET",
      `${daemon.sessionPath(sessionId)}/transcript?limit=1000`,
    );
    const page = (await response.json()) as Page;
    expect(page.has_older).toBe(false);
    return page.entries;
  }

  beforeAll(async () => {
    daemon = await startTestDaemon();
    const id = await ensureWelcomeSession({
      host: daemon.host,
      store: daemon.ledger.store,
      workspaceId: daemon.ws,
    });
    sessionId = id ?? "";
    requests = compozyWebRequests(daemon.ws, sessionId, "Thanks, that reads well.");
  }, 60_000);
  afterAll(() => daemon.stop());

  it("when CompozyOS's web opens a session, then none of its requests gets a 4xx and every answer has the shape its types promise", async () => {
    for (const request of requests.filter((r) => r.name !== "prompt")) {
      const response = await send(request);
      const body = response.status === 204 ? null : await response.json();
      expect({ request: request.name, status: response.status }).toEqual({
        request: request.name,
        status: 200,
      });
      const schema = CompozyAnswers[request.name];
      if (schema === undefined) throw new Error(`no schema for ${request.name}`);
      const parsed = schema.safeParse(body);
      if (!parsed.success)
        throw new Error(`${request.name} (${request.source}): ${parsed.error.message}`);
      // CompozyOS's web checks the listener's tier before it opens a stream.
      expect(response.headers.get(GATEWAY_TIER_HEADER)).toBe("local");
    }
  });

  it("when its parser reads the welcome session's transcript, then it rejects no entry", async () => {
    const entries = await wholeTranscript();
    expect(entries.length).toBeGreaterThan(10);
    const messages = entries.map((entry) => entry.message);
    expect(await parseLikeCompozyWeb(messages)).toBe(messages.length);
    // The compaction and the state lines are markers in the assistant role, as CompozyOS's own.
    expect(messages.filter((message) => message.role === "system")).toEqual([]);
  });

  it("when it reads the live stream's snapshot, then its parser accepts every entry", async () => {
    const base = await daemon.listen();
    const stream = await openSse(
      `${base}${daemon.sessionPath(sessionId)}/stream?frames=transcript`,
    );
    try {
      const snapshot = await stream.waitFor((event) => event.event === "transcript_snapshot");
      const { entries } = JSON.parse(snapshot.data) as Page;
      expect(await parseLikeCompozyWeb(entries.map((entry) => entry.message))).toBe(entries.length);
    } finally {
      stream.close();
    }
  });

  it("when it sends a prompt with its own body, then the message appears once, under the client's id", async () => {
    const request = requests.find((r) => r.name === "prompt");
    if (request === undefined) throw new Error("no prompt request");
    const response = await send(request);
    expect([200, 202]).toContain(response.status);
    const body = (await response.json()) as unknown;
    expect(CompozyAnswers.prompt?.safeParse(body).success).toBe(true);
    const messageId = (request.body as { message_id: string }).message_id;
    await daemon.waitForSession(sessionId, (s) => s.activity?.turn_id === undefined);
    const entries = await wholeTranscript();
    const mine = entries.filter((entry) => entry.message.id === messageId);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.message.role).toBe("user");
    // The person's words once (the agent's reply may quote them).
    const sameText = entries.filter(
      (entry) =>
        entry.message.role === "user" &&
        JSON.stringify(entry.message).includes("Thanks, that reads well."),
    );
    expect(sameText).toHaveLength(1);
    // A retry with the same key is the same prompt, not a second message.
    const retry = await send(request);
    expect([200, 202]).toContain(retry.status);
    expect(((await retry.json()) as { prompt: { replayed: boolean } }).prompt.replayed).toBe(true);
    expect((await wholeTranscript()).filter((e) => e.message.id === messageId)).toHaveLength(1);
  });

  it("when a presence lease is renewed or released, then 204; a release without its lease is 400", async () => {
    const path = `${daemon.sessionPath(sessionId)}/presence`;
    const first = await daemon.call("POST", path, { body: { visible: true } });
    const { lease_id } = (await first.json()) as { lease_id: string };
    expect((await daemon.call("POST", path, { body: { visible: true, lease_id } })).status).toBe(
      204,
    );
    expect((await daemon.call("POST", path, { body: { visible: false, lease_id } })).status).toBe(
      204,
    );
    expect((await daemon.call("POST", path, { body: { visible: false } })).status).toBe(400);
    expect((await daemon.call("POST", path, { body: { visible: "yes" } })).status).toBe(400);
  });

  it("when a value CompozyOS reads is malformed, then 400 still; an unknown session is 404 on every surface", async () => {
    for (const query of [
      "include_health=maybe",
      "attention=2",
      "sort=asc",
      "type=robot",
      "state=dead",
      "limit=0",
      "limit=abc",
      "archive=never",
    ]) {
      const response = await daemon.call("GET", `/api/sessions?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
    }
    const ghost = `/api/workspaces/${daemon.ws}/sessions/ses_nobody`;
    for (const tail of ["/goal", "/clarifications", "/prompt/queue", "?include_health=true"]) {
      expect({ tail, status: (await daemon.call("GET", `${ghost}${tail}`)).status }).toEqual({
        tail,
        status: 404,
      });
    }
  });

  it("when the list is filtered as CompozyOS's views filter it, then the filters mean what they say", async () => {
    const list = async (query: string) =>
      (
        (await (await daemon.call("GET", `/api/sessions?${query}`)).json()) as {
          sessions: { id: string; health?: { session_id: string } }[];
        }
      ).sessions;
    expect((await list("type=spawned")).map((s) => s.id)).toEqual([]);
    expect((await list("type=user")).map((s) => s.id)).toContain(sessionId);
    expect((await list("parent=ses_other")).map((s) => s.id)).toEqual([]);
    expect((await list("q=welcome")).map((s) => s.id)).toEqual([sessionId]);
    expect((await list("q=no-such-words")).map((s) => s.id)).toEqual([]);
    // Nobody is waiting on an approval: no session needs you.
    expect((await list("attention=true")).map((s) => s.id)).toEqual([]);
    expect((await list("include_health=true"))[0]?.health?.session_id).toBe(sessionId);
    expect((await list("include_health=false"))[0]).not.toHaveProperty("health");
  });
});
