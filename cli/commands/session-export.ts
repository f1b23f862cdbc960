// `tideline session export <id> [--format md|json|jsonl] [--file PATH]`: the session as a
// file (ADR 0240), streamed from the daemon as it reads it, so a session of any length never
// sits in memory. To a terminal, Markdown loses its control characters like all human
// output; to a pipe or a file, the bytes are the daemon's.
import { createWriteStream } from "node:fs";
import { Writable } from "node:stream";
import type { Command } from "commander";
import { EXPORT_FORMATS, type ExportFormat } from "../../src/contract/export";
import { type CliIo, contextFor } from "../context";
import { DaemonError } from "../daemon-client";
import { terminalText, UsageError } from "../output";

export function registerSessionExport(session: Command, io: CliIo) {
  session
    .command("export")
    .description("Write a session's transcript as Markdown, JSON or JSONL")
    .argument("<session-id>", "the session")
    .option("--format <format>", `one of ${EXPORT_FORMATS.join(", ")}`, "md")
    .option("--file <path>", "write to this file (created private, 0600) instead of stdout")
    .addHelpText(
      "after",
      `
Formats: md, a readable transcript with tool calls and compaction summaries folded; json,
the transcript projection oldest entry first; jsonl, the ledger's rows one per line.

Examples:
  tideline session export 01JD8K3M5V7XQ2R9T4W6Y8Z0AB > session.md
  tideline session export 01JD8K3M5V7XQ2R9T4W6Y8Z0AB --format jsonl --file session.jsonl`,
    )
    .action(async (sessionId: string, options: { format: string; file?: string }, command) => {
      const format = options.format as ExportFormat;
      if (!EXPORT_FORMATS.includes(format)) {
        throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(", ")}`);
      }
      if (options.file !== undefined && options.file.trim() === "") {
        throw new UsageError("--file needs a path");
      }
      const cx = contextFor(command, io);
      const path = await cx.client.sessionPath(sessionId, `/export?format=${format}`);
      const body = await cx.client.stream(path).catch((error: unknown) => {
        if (error instanceof DaemonError && error.code === undefined && error.status === 404) {
          throw new DaemonError(
            404,
            "export_unsupported",
            "this daemon does not serve exports (a Tideline extension)",
          );
        }
        throw error;
      });
      const toTerminal = options.file === undefined && io.stdout.isTTY === true;
      const decoder = new TextDecoder();
      const sink =
        options.file === undefined
          ? undefined
          : createWriteStream(options.file, { mode: 0o600, flags: "w" });
      const target = sink === undefined ? undefined : Writable.toWeb(sink);
      const writer = target?.getWriter();
      const print = (text: string) => {
        if (text !== "") io.stdout.write(toTerminal ? terminalText(text) : text);
      };
      for await (const chunk of body) {
        if (writer !== undefined) await writer.write(chunk);
        else print(decoder.decode(chunk, { stream: true }));
      }
      print(decoder.decode());
      await writer?.close();
      if (options.file !== undefined) cx.err(`Wrote ${options.file}`);
    });
}
