// The ACP SDK's side of an agent's stdio. The SDK reads only the lines the tap hands on
// (`toSdk`), and what it writes is seen line by line first (`noteOutgoing`), so the tap
// knows which request each response answers.
import type { Writable as NodeWritable } from "node:stream";
import { Writable } from "node:stream";
import {
  type ClientConnection,
  client,
  methods,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from "@agentclientprotocol/sdk/unstable";

export function connectSdk(
  stdin: NodeWritable,
  hooks: {
    noteOutgoing(line: string): void;
    permission(
      request: RequestPermissionRequest,
    ): RequestPermissionResponse | Promise<RequestPermissionResponse>;
  },
) {
  const encoder = new TextEncoder();
  let closed = false;
  let sdkInput: ReadableStreamDefaultController<Uint8Array> | undefined;
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      sdkInput = controller;
    },
  });
  stdin.on("error", () => {
    // EPIPE after the agent died: the exit handler reports it.
  });
  const stdinWeb = Writable.toWeb(stdin).getWriter();
  const outputDecoder = new TextDecoder();
  let outputPending = "";
  const output = new WritableStream<Uint8Array>({
    async write(chunk) {
      outputPending += outputDecoder.decode(chunk, { stream: true });
      let newline = outputPending.indexOf("\n");
      while (newline !== -1) {
        hooks.noteOutgoing(outputPending.slice(0, newline));
        outputPending = outputPending.slice(newline + 1);
        newline = outputPending.indexOf("\n");
      }
      await stdinWeb.write(chunk);
    },
  });

  const connection: ClientConnection = client({ name: "tideline" })
    .onNotification(methods.client.session.update, () => {
      // Never reached: the tap keeps session/update from the SDK.
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => hooks.permission(params))
    .connect(ndJsonStream(output, input));
  connection.closed.catch(() => {});

  return {
    agent: connection.agent,

    /** A line of the agent's the SDK should handle. */
    toSdk(line: string): void {
      if (closed || sdkInput === undefined) return;
      try {
        sdkInput.enqueue(encoder.encode(`${line}\n`));
      } catch {
        // The SDK side is already closed; nothing left to deliver to.
      }
    },

    /** Answers a request the SDK must not see, so the agent is not left waiting. */
    refuseRequest(id: unknown, reason: string): void {
      if (closed) return;
      const error = { code: -32602, message: `invalid params: ${reason}` };
      stdinWeb
        .write(encoder.encode(`${JSON.stringify({ jsonrpc: "2.0", id, error })}\n`))
        .catch(() => {
          // The agent is gone; the exit handler reports it.
        });
    },

    close(): void {
      closed = true;
      try {
        sdkInput?.close();
      } catch {
        // Already closed.
      }
      connection.close(new Error("agent process ended"));
    },
  };
}
