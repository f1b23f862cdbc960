import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { createInitializeGate } from "./input-gate";
import { newStateDir } from "./test-client";

const encoder = new TextEncoder();

function linesOf(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(text));
      controller.close();
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text;
}

describe("the initialize gate", () => {
  it("when lines follow an initialize request, then they wait until its response has been written", async () => {
    const gate = createInitializeGate();
    const held = readAll(
      gate.hold(linesOf('{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}\n{"id":8}\n')),
    );
    let settled = false;
    void held.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    gate.observeOutput(encoder.encode('{"jsonrpc":"2.0","id":7,"result":{}}\n'));
    expect(await held).toBe(
      '{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}\n{"id":8}\n',
    );
  });

  it("when a whole file of requests is piped in at once, then the real agent answers each of them", async () => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(import.meta.dirname, "main.ts"),
        "--speed",
        "0",
        "--state-dir",
        newStateDir(),
      ],
      { stdio: ["pipe", "pipe", "ignore"] },
    );
    child.stdin.write(
      [
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"session":{"compaction":{}}}}}',
        '{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}',
        "",
      ].join("\n"),
    );
    const responses: unknown[] = [];
    for await (const line of createInterface({ input: child.stdout })) {
      const frame = JSON.parse(line) as { id?: unknown };
      if (frame.id !== undefined) responses.push(frame);
      if (responses.length === 2) break;
    }
    child.kill();
    expect(responses).toEqual([
      expect.objectContaining({ id: 1, result: expect.objectContaining({ protocolVersion: 1 }) }),
      { jsonrpc: "2.0", id: 2, result: { sessionId: "demo-1" } },
    ]);
  });
});
