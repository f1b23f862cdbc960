// The agent's stdout, shared by the SDK and by the one scenario (`bad-frame`) that must put a
// frame on the wire the SDK would never produce. Both paths end in the same ordered
// `stdout.write`, and each write resolves only once Node has taken the bytes, so awaiting an
// SDK notification and then writing a raw line keeps them in that order on the wire.
import type { Writable } from "node:stream";

export type AgentWire = {
  /** The byte stream handed to the SDK's `ndJsonStream` as its output. */
  output: WritableStream<Uint8Array>;
  /** Writes one JSON value as one NDJSON line, bypassing the SDK and its validation. */
  writeRawLine(value: unknown): Promise<void>;
};

function writeBytes(stdout: Writable, bytes: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => {
    stdout.write(bytes, (error) => (error ? reject(error) : resolve()));
  });
}

export function createAgentWire(
  stdout: Writable,
  observe: (chunk: Uint8Array) => void = () => {},
): AgentWire {
  return {
    output: new WritableStream<Uint8Array>({
      write: (chunk) => {
        observe(chunk);
        return writeBytes(stdout, chunk);
      },
    }),
    writeRawLine: (value) => writeBytes(stdout, `${JSON.stringify(value)}\n`),
  };
}
