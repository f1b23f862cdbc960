// Wire bytes per message byte on the live stream (issue 23, ADR 0200), through the real
// daemon process and the flood agent: one streamed reply per cell of a pace × size grid,
// read at once by a client that asks for append frames (as the SPA does) and by one that
// does not (CompozyOS's web: today's whole-entry frames). Each figure is the appending
// reader's bytes for the reply's entry over the reply's size (budget ≤ 2×), beside the
// same for the plain reader; then a 16 MB reply, which both must follow to its end.
//
// Chunks: 32 B at 1 and 2 ms and 100 B at 40 and 200 ms (the two measured shapes),
// but never more than 3 s of chunks per cell: larger sizes use fewer, larger chunks (each
// line says its count and size), and the issue's two shapes exactly. A frame counts when it
// carries the reply's entry.
import { join } from "node:path";
import { createSession, prompt, startFloodDaemon, untilIdle } from "./live-daemon";
import { printFigure } from "./report";

const PACES_MS = [1, 2, 40, 200];
const SIZES = [1024, 64 * 1024, 1024 * 1024, 4 * 1024 * 1024];
const CELL_MS = 3_000;

type ReplyReader = {
  /** Bytes of the frames that carried the reply's entry. */
  bytes: () => number;
  /** The reply's text length as this reader holds it (appends folded). */
  textLength: () => number;
  gaps: () => number;
  close: () => void;
};

/** Reads the stream and follows one message (by its id) without keeping the frames. */
async function followReply(url: string, messageId: string): Promise<ReplyReader> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  let bytes = 0;
  let textLength = 0;
  let gaps = 0;
  let start: number | undefined;
  const needle = `"id":"${messageId}"`;
  // Parsed by hand: a whole-entry frame of a 16 MB reply must cost this reader little, or
  // it falls behind and the daemon drops it. The flood agent's text has no escapes.
  const onFrame = (frame: string) => {
    const event = frame.slice("event: ".length, frame.indexOf("\n"));
    if (event === "transcript_delta") {
      const at = frame.indexOf(needle);
      if (at < 0) return;
      bytes += Buffer.byteLength(frame) + 2;
      const textStart = frame.indexOf('"text":"', at) + '"text":"'.length;
      const textEnd = frame.indexOf('"', textStart);
      textLength = textEnd - textStart;
      start = Number(/"start_sequence":(\d+)/.exec(frame.slice(textEnd, textEnd + 200))?.[1]);
    } else if (event === "entry_append") {
      const data = frame.slice(frame.indexOf("\ndata: ") + "\ndata: ".length).split("\n")[0];
      const append = JSON.parse(data ?? "") as {
        start_sequence: number;
        offset: number;
        text: string;
      };
      if (append.start_sequence !== start) return;
      bytes += Buffer.byteLength(frame) + 2;
      if (append.offset !== textLength) gaps += 1;
      textLength = append.offset + append.text.length;
    }
  };
  void (async () => {
    const decoder = new TextDecoder();
    // The unfinished frame, in pieces: joining only once it is complete.
    let pieces: string[] = [];
    let tail = "";
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        let text = decoder.decode(chunk, { stream: true });
        // A boundary split across chunks: "\n" at the end of one, "\n" at the start of the next.
        let end = tail === "\n" && text.startsWith("\n") ? -1 : text.indexOf("\n\n");
        if (end === -1 && tail === "\n" && text.startsWith("\n")) {
          const joined = pieces.join("");
          onFrame(joined.slice(0, -1));
          pieces = [];
          text = text.slice(1);
          end = text.indexOf("\n\n");
        }
        while (end >= 0) {
          onFrame(pieces.join("") + text.slice(0, end));
          pieces = [];
          text = text.slice(end + 2);
          end = text.indexOf("\n\n");
        }
        if (text !== "") pieces.push(text);
        tail = text.at(-1) ?? "";
      }
    } catch {
      // closed
    }
  })();
  return {
    bytes: () => bytes,
    textLength: () => textLength,
    gaps: () => gaps,
    close: () => controller.abort(),
  };
}

function shape(size: number, paceMs: number) {
  const smallest = paceMs <= 2 ? 32 : 100;
  const chunks = Math.max(1, Math.min(Math.round(size / smallest), Math.floor(CELL_MS / paceMs)));
  const bytes = Math.round(size / chunks);
  return { chunks, bytes, total: chunks * bytes };
}

function label(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(bytes >= 10 * 1024 ? 0 : 1)} KB`;
  return `${bytes} B`;
}

let replies = 0;

/** A loopback request may meet a keep-alive socket the daemon just closed: try again. */
async function settled<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** One reply in a fresh session, so no reader's snapshot carries the earlier cells' replies. */
async function streamReply(base: string, chunks: number, bytes: number, paceMs: number) {
  const session = await createSession(base, workspace);
  replies += 1;
  const messageId = `msg-bench-${replies}`;
  const appending = await followReply(`${session.path}/stream?tideline_append=1`, messageId);
  const plain = await followReply(`${session.path}/stream`, messageId);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const started = performance.now();
  await prompt(session, `pace ${chunks} ${bytes} ${paceMs} bench-${replies}`);
  await settled(() => untilIdle(session));
  const total = chunks * bytes;
  // Both readers must hold the whole reply (a held append goes out within a second).
  const deadline = performance.now() + 60_000;
  while (appending.textLength() < total || plain.textLength() < total) {
    if (performance.now() > deadline) {
      throw new Error(
        `reply ${label(total)} not followed to its end: ${appending.textLength()} / ${plain.textLength()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  appending.close();
  plain.close();
  // Its agent process is not needed any more.
  await settled(() => fetch(`${session.path}/stop`, { method: "POST" }));
  return {
    total,
    seconds,
    appendBytes: appending.bytes(),
    plainBytes: plain.bytes(),
    gaps: appending.gaps(),
  };
}

const daemon = await startFloodDaemon();
const workspace = join(daemon.dataDir, "workspace");
try {
  let worst = 0;
  for (const paceMs of PACES_MS) {
    for (const size of SIZES) {
      const { chunks, bytes } = shape(size, paceMs);
      const cell = await streamReply(daemon.url, chunks, bytes, paceMs);
      if (cell.gaps > 0) throw new Error(`${cell.gaps} appends did not fit`);
      worst = Math.max(worst, cell.appendBytes / cell.total);
      printFigure({
        name: `wire bytes per message byte, ${label(size)} reply, ${paceMs} ms apart (${chunks} × ${label(bytes)})`,
        value: cell.appendBytes / cell.total,
        unit: "×",
        budget: 2,
        kind: "max",
        baseline: { name: "today's whole-entry frames", value: cell.plainBytes / cell.total },
      });
    }
  }
  // The two shapes the issue measured in Chromium (52× and 121× with whole entries).
  for (const [chunks, bytes, paceMs] of [
    [2000, 32, 2],
    [300, 100, 40],
  ] as const) {
    const cell = await streamReply(daemon.url, chunks, bytes, paceMs);
    printFigure({
      name: `wire bytes per message byte, the issue's ${chunks} × ${bytes} B, ${paceMs} ms apart (${label(cell.total)})`,
      value: cell.appendBytes / cell.total,
      unit: "×",
      budget: 2,
      kind: "max",
      baseline: { name: "today's whole-entry frames", value: cell.plainBytes / cell.total },
    });
  }
  printFigure({
    name: "wire bytes per message byte, worst cell of the grid",
    value: worst,
    unit: "×",
    budget: 2,
    kind: "max",
  });

  // 16 MB, followed live to its end by both readers (4,096 chunks of 4 KB, 1 ms apart).
  const big = await streamReply(daemon.url, 4096, 4096, 1);
  printFigure({
    name: `16 MB reply followed live to its end (${big.seconds.toFixed(1)} s), wire bytes per message byte`,
    value: big.appendBytes / big.total,
    unit: "×",
    budget: 2,
    kind: "max",
    baseline: { name: "today's whole-entry frames", value: big.plainBytes / big.total },
  });
} catch (error) {
  console.error(`daemon log (tail):\n${daemon.log().slice(-3000)}`);
  throw error;
} finally {
  await daemon.stop();
}
