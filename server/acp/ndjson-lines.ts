// Splits a byte stream into NDJSON lines as chunks arrive. Lines are cut on the newline
// byte before decoding, so a UTF-8 character split across chunks is never mangled. A line
// longer than `maxLineBytes` is reported once (truncated) and skipped up to its newline, so
// an agent that never writes a newline cannot grow the daemon's memory without bound.
export type LineSink = {
  line(text: string): void;
  oversized(prefix: string, bytes: number): void;
};

const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export function createLineSplitter(sink: LineSink, maxLineBytes = DEFAULT_MAX_LINE_BYTES) {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;

  function overflow() {
    const prefix = Buffer.concat(pending).subarray(0, 4096).toString("utf8");
    sink.oversized(prefix, pendingBytes);
    pending = [];
    pendingBytes = 0;
    skipping = true;
  }

  return {
    push(chunk: Buffer): void {
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(0x0a, start);
        if (newline === -1) break;
        if (skipping) {
          skipping = false;
        } else {
          pending.push(chunk.subarray(start, newline));
          const text = Buffer.concat(pending).toString("utf8");
          pending = [];
          pendingBytes = 0;
          sink.line(text.endsWith("\r") ? text.slice(0, -1) : text);
        }
        start = newline + 1;
      }
      if (start < chunk.length && !skipping) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > maxLineBytes) overflow();
      }
    },
    /** The stream ended: a last line without a newline still counts. */
    end(): void {
      if (pending.length > 0 && !skipping) {
        const text = Buffer.concat(pending).toString("utf8");
        pending = [];
        pendingBytes = 0;
        sink.line(text);
      }
    },
  };
}
