import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { newStateDir } from "../testing/demo-agent-client";
import { createInitializeGate } from "./input-gate";

const encoder = new TextEncoder();

function linesOf(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(text));
      controller.close();
    },
  });
}

describe("the initialize gate", () => {
  it("when lines follow an initialize request, then they wait until its response has been written", async () => {
    const gate = createInitializeGate();
    const init = '{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}\n';
    const reader = gate.hold(linesOf(`${init}{"id":8}\n`), async () => {}).getReader();
    const decoder = new TextDecoder();
    // The initialize request itself goes through: the gate has reached the line it holds.
    expect(decoder.decode((await reader.read()).value)).toBe(init);
    let next: string | undefined;
    const second = reader.read().then(({ value }) => {
      next = decoder.decode(value);
    });
    // Not a sleep: setImmediate runs once every promise job already due has run, so a gate
    // that let the next line through would have delivered it by then.
    await new Promise((resolve) => setImmediate(resolve));
    expect(next).toBeUndefined();
    gate.observeOutput(encoder.encode('{"jsonrpc":"2.0","id":7,"result":{}}\n'));
    await second;
    expect(next).toBe('{"id":8}\n');
  });

  it("when a whole file of requests is piped in at once, then the real agent answers each in turn and exits at the end", async () => {
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
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.stdin.end(
      [
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"session":{"compaction":{}}}}}',
        '{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}',
        '{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"demo-1","prompt":[{"type":"text","text":"Hi"}]}}',
        '{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"demo-1","prompt":[{"type":"text","text":"/compact"}]}}',
        "",
      ].join("\n"),
    );
    const frames: Array<{
      id?: unknown;
      result?: unknown;
      params?: { update?: { sessionUpdate?: string } };
    }> = [];
    for await (const line of createInterface({ input: child.stdout }))
      frames.push(JSON.parse(line));
    expect(await exited).toBe(0);

    const names = frames.map((frame) =>
      frame.id !== undefined
        ? `response ${String(frame.id)}`
        : String(frame.params?.update?.sessionUpdate),
    );
    expect(names.filter((name) => name.startsWith("response"))).toEqual([
      "response 1",
      "response 2",
      "response 3",
      "response 4",
    ]);
    expect(frames[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { sessionId: "demo-1" } });
    // The second turn's frames all come after the first turn's response.
    expect(names.indexOf("compaction_update")).toBeGreaterThan(names.indexOf("response 3"));
    expect(names.at(-1)).toBe("response 4");
  });
});
