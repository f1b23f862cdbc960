// Search over HTTP (a Tideline extension): the session's matches and the workspace's hits,
// and every hostile or malformed `q` refused with 400 invalid_request, never a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorEnvelope } from "../../src/contract/error";
import { SessionSearchResult, WorkspaceSearchResult } from "../../src/contract/search";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { frames } from "../testing/ledger-session";

let daemon: TestDaemon;
let sessionId: string;

beforeAll(async () => {
  daemon = await startTestDaemon({ agents: [] });
  const { ledger } = daemon;
  const session = ledger.store.createSession({
    workspaceId: daemon.ws,
    agentName: "demo",
    name: "Auth work",
  });
  sessionId = session.id;
  ledger.recorder.recordInput(sessionId, "t1", "Why does the login fail on Safari?");
  ledger.recorder.recordUpdate(
    sessionId,
    "t1",
    frames.text("The login cookie is SameSite=None.", "a1"),
  );
  ledger.recorder.recordInput(sessionId, "t2", 'He said "NEAR(login, 2)" OR not');
});
afterAll(() => daemon.stop());

const sessionSearch = (q: string, extra = "") =>
  daemon.call("GET", `${daemon.sessionPath(sessionId)}/search?q=${encodeURIComponent(q)}${extra}`);
const workspaceSearch = (q: string, ws = daemon.ws) =>
  daemon.call("GET", `/api/workspaces/${ws}/search?q=${encodeURIComponent(q)}`);

async function refused(response: Response, field = "q") {
  expect(response.status).toBe(400);
  const body = ErrorEnvelope.parse(await response.json());
  expect(body.code).toBe("invalid_request");
  expect(Object.keys(body.details ?? {})).toContain(field);
  return body;
}

describe("search over HTTP", () => {
  it("when a session is searched, then every matching entry comes oldest first with the count", async () => {
    const response = await sessionSearch("LOGIN");
    expect(response.status).toBe(200);
    const body = SessionSearchResult.parse(await response.json());
    expect(body.total).toBe(3);
    expect(body.matches.map((match) => match.entry_id)).toEqual(["user-1", "msg-a1", "user-3"]);
    const limited = SessionSearchResult.parse(
      await (await sessionSearch("login", "&limit=1")).json(),
    );
    expect(limited).toMatchObject({ total: 3, matches: [{ entry_id: "user-1" }] });
  });

  it('when q holds FTS syntax (", NEAR(, OR, *, ^, :), then it is searched as plain words, never a 500', async () => {
    for (const q of [
      '"',
      '"login',
      "NEAR(login",
      "login OR",
      "*",
      "^login",
      "text:login",
      "login)",
      "'--",
    ]) {
      const response = await sessionSearch(q);
      expect([200, 400], q).toContain(response.status);
    }
    const near = SessionSearchResult.parse(await (await sessionSearch('"NEAR(login')).json());
    expect(near.matches.map((match) => match.entry_id)).toEqual(["user-3"]);
    const or = SessionSearchResult.parse(await (await sessionSearch("2) OR")).json());
    expect(or.matches.map((match) => match.entry_id)).toEqual(["user-3"]);
  });

  it("when q is missing, empty, blank, punctuation only, oversized or repeated, then 400 says why", async () => {
    await refused(await daemon.call("GET", `${daemon.sessionPath(sessionId)}/search`));
    expect((await refused(await sessionSearch(""))).details?.q).toMatch(/empty/);
    await refused(await sessionSearch("   "));
    expect((await refused(await sessionSearch('"*()'))).details?.q).toMatch(/letter or a digit/);
    expect((await refused(await sessionSearch("a".repeat(201)))).details?.q).toMatch(/200/);
    await refused(await sessionSearch(Array.from({ length: 17 }, (_, i) => `w${i}`).join(" ")));
    await refused(await sessionSearch("login", "&q=other"));
    await refused(await sessionSearch("login", "&limit=0"), "limit");
    await refused(await sessionSearch("login", "&limit=abc"), "limit");
    await refused(await sessionSearch("login", "&scope=all"), "scope");
  });

  it("when the session or workspace is unknown, then 404", async () => {
    const response = await daemon.call(
      "GET",
      `/api/workspaces/ws_nope/sessions/${sessionId}/search?q=login`,
    );
    expect(response.status).toBe(404);
    expect((await workspaceSearch("login", "ws_nope")).status).toBe(404);
  });

  it("when the workspace is searched, then each hit names its session and carries a marked snippet", async () => {
    const response = await workspaceSearch("samesite");
    expect(response.status).toBe(200);
    const body = WorkspaceSearchResult.parse(await response.json());
    expect(body.hits).toEqual([
      {
        session_id: sessionId,
        session_name: "Auth work",
        entry_id: "msg-a1",
        start_sequence: expect.any(Number),
        snippet: [
          { text: "The login cookie is ", match: false },
          { text: "SameSite", match: true },
          { text: "=None.", match: false },
        ],
      },
    ]);
    await refused(await workspaceSearch(""));
  });
});
