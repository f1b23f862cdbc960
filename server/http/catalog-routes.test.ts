// `GET /api/sessions/{session_id}` and `GET /api/sessions/catalog-stream` against the real
// daemon (temp SQLite, the demo agent as a real process).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorEnvelope } from "../../src/contract/error";
import { DaemonSessionEnvelope, SessionCatalogEvent } from "../../src/contract/session";
import { startTestDaemon, type TestDaemon } from "../testing/daemon";
import { openSse } from "../testing/sse-reader";
import { CATALOG_CHANGED_EVENT } from "./catalog-stream";

describe("the session catalog by id and its change stream", () => {
  let daemon: TestDaemon;
  let base: string;

  beforeAll(async () => {
    daemon = await startTestDaemon({ token: "secret-token" });
    base = await daemon.listen();
  });
  afterAll(() => daemon.stop());

  const auth = { Authorization: "Bearer secret-token" };

  async function createActive() {
    const response = await daemon.call("POST", "/api/sessions", {
      body: { workspace: daemon.ws },
      headers: auth,
    });
    expect(response.status).toBe(201);
    const { session } = DaemonSessionEnvelope.parse(await response.json());
    return daemon.waitForSession(
      session.id,
      (s) => s.state === "active" && s.available_commands.length > 0,
    );
  }

  it("when a session is asked for by id alone, then it is the same envelope as the workspace route", async () => {
    const created = await createActive();
    const byId = await daemon.call("GET", `/api/sessions/${created.id}`, { headers: auth });
    expect(byId.status).toBe(200);
    const body = DaemonSessionEnvelope.parse(await byId.json());
    expect(body.session.id).toBe(created.id);
    expect(body.session.workspace_id).toBe(daemon.ws);
    expect(body.session.available_commands.length).toBeGreaterThan(0);
    const withHealth = await daemon.call("GET", `/api/sessions/${created.id}?include_health=true`, {
      headers: auth,
    });
    expect(withHealth.status).toBe(200);
    // As the workspace route answers it (CompozyOS's metadata-only health).
    expect(DaemonSessionEnvelope.parse(await withHealth.json()).session.health).toMatchObject({
      session_id: created.id,
      health: "healthy",
    });
  });

  it("when a session's owner is asked for by id alone, then it names the workspace as CompozyOS does", async () => {
    const created = await createActive();
    const response = await daemon.call("GET", `/api/sessions/${created.id}/owner`, {
      headers: auth,
    });
    expect(response.status).toBe(200);
    const workspace = daemon.ledger.store.getWorkspace(daemon.ws);
    expect(await response.json()).toEqual({
      session_id: created.id,
      workspace_id: daemon.ws,
      workspace_name: workspace?.name,
    });
    for (const id of ["ses_nope", "..%2F..%2Fetc", "%00", "x".repeat(500)]) {
      const missing = await daemon.call("GET", `/api/sessions/${id}/owner`, { headers: auth });
      expect(missing.status).toBe(404);
      expect(ErrorEnvelope.parse(await missing.json()).code).toBe("not_found");
    }
    expect((await daemon.call("GET", `/api/sessions/${created.id}/owner`)).status).toBe(401);
  });

  it("when the id is unknown, hostile, or the query is wrong, then 404 or 400 in the contract's words", async () => {
    for (const id of ["ses_nope", "..%2F..%2Fetc", "%00", "x".repeat(500)]) {
      const response = await daemon.call("GET", `/api/sessions/${id}`, { headers: auth });
      expect(response.status).toBe(404);
      expect(ErrorEnvelope.parse(await response.json()).code).toBe("not_found");
    }
    const created = await createActive();
    // Unknown parameters are ignored, as on the workspace route (CompozyOS's clients send
    // their own); a bad or repeated known one is refused.
    expect(
      (await daemon.call("GET", `/api/sessions/${created.id}?limit=1`, { headers: auth })).status,
    ).toBe(200);
    for (const query of ["include_health=maybe", "include_health=true&include_health=false"]) {
      const response = await daemon.call("GET", `/api/sessions/${created.id}?${query}`, {
        headers: auth,
      });
      expect(response.status).toBe(400);
      expect(ErrorEnvelope.parse(await response.json()).code).toBe("invalid_request");
    }
    expect((await daemon.call("GET", `/api/sessions/${created.id}`)).status).toBe(401);
  });

  it("when sessions are created, renamed and deleted, then the catalog stream wakes with upserted and deleted", async () => {
    // An EventSource sends no headers: the token rides as access_token, as on the session stream.
    const stream = await openSse(`${base}/api/sessions/catalog-stream?access_token=secret-token`);
    try {
      expect(stream.status).toBe(200);
      await expect.poll(() => stream.comments).toContain("session catalog stream ready");
      const events = () =>
        stream.events
          .filter((event) => event.event === CATALOG_CHANGED_EVENT)
          .map((event) => SessionCatalogEvent.parse(JSON.parse(event.data)));

      const created = await createActive();
      await stream.waitFor((event) => event.data.includes(created.id));
      expect(events()).toContainEqual({
        kind: "upserted",
        workspace_id: daemon.ws,
        session_id: created.id,
      });

      const from = stream.events.length;
      const renamed = await daemon.call("PATCH", daemon.sessionPath(created.id), {
        body: { name: "Renamed" },
        headers: auth,
      });
      expect(renamed.status).toBe(200);
      await stream.waitFor((event) => event.data.includes(created.id), 5000, from);

      const stopped = await daemon.call("POST", `${daemon.sessionPath(created.id)}/stop`, {
        headers: auth,
      });
      expect(stopped.status).toBe(204);
      await daemon.waitForSession(created.id, (session) => session.state === "stopped");
      const beforeDelete = stream.events.length;
      const deleted = await daemon.call("DELETE", daemon.sessionPath(created.id), {
        headers: auth,
      });
      expect(deleted.status).toBe(204);
      await stream.waitFor((event) => event.data.includes('"deleted"'), 5000, beforeDelete);
      expect(events().at(-1)).toEqual({
        kind: "deleted",
        workspace_id: daemon.ws,
        session_id: created.id,
      });
      // Coalesced: a burst of changes to one session is a few wakes, not one per change.
      expect(events().filter((event) => event.session_id === created.id).length).toBeLessThan(12);
    } finally {
      stream.close();
    }
  });

  it("when the catalog stream is asked for without the token, or the token rides on another route, then 401", async () => {
    expect((await fetch(`${base}/api/sessions/catalog-stream`)).status).toBe(401);
    const created = await createActive();
    expect(
      (await fetch(`${base}/api/sessions/${created.id}?access_token=secret-token`)).status,
    ).toBe(401);
  });
});
