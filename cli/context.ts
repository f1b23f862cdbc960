// What every command gets: the daemon client, the chosen output format, colours, and the
// two output streams. Built from the global options, so a command never reads argv itself.
import type { Command } from "commander";
import { createDaemonClient, type DaemonClient, DEFAULT_API } from "./daemon-client";
import {
  humanSafe,
  type OutputFormat,
  type Paint,
  paint,
  resolveFormat,
  type Stream,
  toJson,
  toJsonLines,
  toToon,
  wantsColour,
} from "./output";

export type CliIo = { stdout: Stream; stderr: Stream; env: NodeJS.ProcessEnv };

/**
 * One answer in the three program formats: the daemon's payload for `json`, its records
 * one per line for `jsonl` (default: the payload alone), and under a name for `toon`
 * (default: the payload).
 */
type MachineOutput = {
  json: unknown;
  jsonl?: readonly unknown[];
  toon: readonly [name: string, value?: unknown];
};

export type CommandContext = {
  client: DaemonClient;
  format: OutputFormat;
  colours: Paint;
  out(text: string): void;
  err(text: string): void;
  /** Writes the answer in a program format and says so; false for `human` (the caller's). */
  machine(output: MachineOutput): boolean;
};

type GlobalOptions = { api?: string; token?: string; output?: string; json?: boolean };

export function contextFor(command: Command, io: CliIo): CommandContext {
  const options = command.optsWithGlobals<GlobalOptions>();
  const format = resolveFormat(options.output, options.json);
  const token = options.token ?? io.env.TIDELINE_TOKEN;
  // Human output goes through the last guard; JSON, JSONL and TOON are escaped by encoding.
  const safe = format === "human" ? humanSafe : (text: string) => text;
  const line = (text: string) => safe(text.endsWith("\n") ? text : `${text}\n`);
  const out = (text: string) => {
    io.stdout.write(line(text));
  };
  return {
    client: createDaemonClient({
      api: options.api ?? io.env.TIDELINE_API ?? DEFAULT_API,
      ...(token === undefined || token === "" ? {} : { token }),
    }),
    format,
    colours: paint(format === "human" && wantsColour(io.stdout, io.env)),
    out,
    err: (text) => io.stderr.write(line(text)),
    machine: (output) => writeMachine(format, output, out),
  };
}

function writeMachine(
  format: OutputFormat,
  output: MachineOutput,
  out: (text: string) => void,
): boolean {
  switch (format) {
    case "human":
      return false;
    case "json":
      out(toJson(output.json));
      return true;
    case "jsonl":
      out(toJsonLines(output.jsonl ?? [output.json]));
      return true;
    case "toon": {
      const [name, value] = output.toon;
      out(toToon(name, value === undefined ? output.json : value));
      return true;
    }
  }
}

/** How a failure is reported (JSON for -o json/jsonl), read from argv itself: it may be bad. */
export function errorFormat(argv: readonly string[]): OutputFormat {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? "";
    if (arg === "--json") return "json";
    const value =
      arg === "-o" || arg === "--output"
        ? argv[i + 1]
        : arg.startsWith("--output=")
          ? arg.slice(9)
          : arg.startsWith("-o") && arg.length > 2
            ? arg.slice(2)
            : undefined;
    if (value !== undefined) {
      const format = value.trim().toLowerCase();
      return format === "json" || format === "jsonl" ? "json" : "human";
    }
  }
  return "human";
}
