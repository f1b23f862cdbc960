// The CLI's way to a session it knows by id: one `GET /api/sessions/{id}` against the real
// daemon, and a 404 that is the answer (the list is never paged to look for it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDaemon, type TestDaemon } from "../server/testing/daemon";
import { createDaemonClient, DaemonError } from "./daemon-client";

describe("findSession", () => {
  let daemon: TestDaemon;
  let api: string;
  const requests: string[] = [];
  // The real fetch, with every path the client asks for written down.
  const countingFetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    requests.push(`${init?.method ?? "GET"} ${url.pathname}${url.search}`);
    return fetch(input, init);
  };

  beforeAll(async () => {
    daemon = await startTestDaemon();
    api = await daemon.listen();
  });
  afterAll(() => daemon.stop());

  it("when the session exists, then one GET by id finds it, and the next lookup is from memory", async () => {
    const created = await daemon.createActiveSession();
    const client = createDaemonClient({ api, fetch: countingFetch });
    requests.length = 0;
    const found = await client.findSession(created.id);
    expect(found).toMatchObject({ id: created.id, workspace_id: daemon.ws });
    expect(await client.sessionPath(created.id, "/prompt")).toBe(
      `/api/workspaces/${daemon.ws}/sessions/${created.id}/prompt`,
    );
    expect(requests).toEqual([`GET /api/sessions/${created.id}`]);
  });

  it("when there is no such session, then 404 not_found in the CLI's words after one request, with no list scan", async () => {
    // Sessions that a list scan would have to page through.
    for (let index = 0; index < 3; index += 1) await daemon.createActiveSession();
    const client = createDaemonClient({ api, fetch: countingFetch });
    requests.length = 0;
    const error = await client.findSession("ses_nope").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DaemonError);
    expect(error).toMatchObject({
      status: 404,
      code: "not_found",
      message: "session ses_nope not found",
    });
    expect(requests).toEqual(["GET /api/sessions/ses_nope"]);
  });

  it("when the id holds URL syntax, then it stays one path segment", async () => {
    const client = createDaemonClient({ api, fetch: countingFetch });
    requests.length = 0;
    await expect(client.findSession("../workspaces?x=1#y")).rejects.toMatchObject({ status: 404 });
    expect(requests).toEqual(["GET /api/sessions/..%2Fworkspaces%3Fx%3D1%23y"]);
  });
});
