// `tideline session prompt` against a stand-in for a reference daemon from before the
// CompozyOS contract: it refuses the contract's body (400 invalid_request) and takes
// `{text}`, answering `{prompt_id}`; the CLI sends once more in that shape.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliIn } from "../server/testing/cli-runner";

const SESSION = {
  id: "s1",
  workspace_id: "w1",
  agent_name: "demo",
  state: "active",
  available_commands: [],
  created_at: "2026-12-01T08:00:00Z",
  updated_at: "2026-12-01T08:00:00Z",
};

describe("tideline session prompt against a pre-contract daemon", () => {
  let server: Server;
  let base: string;
  const bodies: unknown[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { "Content-Type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (request.url === "/api/sessions/s1") return json(200, { session: SESSION });
      let raw = "";
      request.on("data", (chunk) => {
        raw += chunk;
      });
      request.on("end", () => {
        const body = JSON.parse(raw) as Record<string, unknown>;
        bodies.push(body);
        if (!("text" in body)) {
          return json(400, { error: "text is required", code: "invalid_request" });
        }
        json(202, { prompt_id: "turn-7", status: "accepted" });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("when the contract's body is refused as invalid, then it is sent again as {text} and the old answer is read", async () => {
    const run = await cliIn(base, ["session", "prompt", "s1", "Hello", "-o", "json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      session_id: "s1",
      prompt_id: "turn-7",
      status: "accepted",
    });
    expect(bodies).toEqual([
      { message: "Hello", message_id: expect.any(String), idempotency_key: expect.any(String) },
      { text: "Hello" },
    ]);
  });
});
