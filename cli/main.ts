// The `tideline` command: global options, the command groups, and the one place errors
// become a message and an exit code.
import { Command, CommanderError, Option } from "commander";
import { registerSessionAudit } from "./commands/session-audit";
import { registerSessionCompact } from "./commands/session-compact";
import { registerSessionExport } from "./commands/session-export";
import { registerSessionLog } from "./commands/session-log";
import { registerSessionPrompt } from "./commands/session-prompt";
import { registerSessionUsage } from "./commands/session-usage";
import { registerSessions } from "./commands/sessions";
import { type CliIo, errorFormat } from "./context";
import { DaemonError, DaemonUnreachable, DEFAULT_API, UnexpectedAnswer } from "./daemon-client";
import { EXIT, EXIT_CODES_HELP, REFUSAL_CODES } from "./exit-codes";
import { cell, OUTPUT_FORMATS, UsageError } from "./output";
import { CLI_VERSION } from "./version";

function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command("tideline")
    .description("Compact and read agent sessions of a Tideline or CompozyOS daemon")
    .version(CLI_VERSION, "-V, --version")
    .option("--api <url>", `daemon base URL (env TIDELINE_API, default ${DEFAULT_API})`)
    .option("--token <token>", "bearer token (env TIDELINE_TOKEN)")
    .addOption(new Option("-o, --output <format>", "output format").choices([...OUTPUT_FORMATS]))
    .option("--json", "same as -o json")
    .addHelpText("after", EXIT_CODES_HELP)
    .showHelpAfterError("(add --help for usage)")
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride();
  registerSessions(program, io);
  const session = program
    .command("session")
    .description("Compact, prompt and read one session")
    .addHelpText("after", EXIT_CODES_HELP);
  registerSessionCompact(session, io, setExit);
  registerSessionPrompt(session, io);
  registerSessionUsage(session, io);
  registerSessionLog(session, io);
  registerSessionAudit(session, io, setExit);
  registerSessionExport(session, io);
  // Every command shares the error handling and output wiring of the root.
  const all = [program, ...program.commands, ...session.commands];
  for (const command of all) {
    command.exitOverride().configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  }
  return program;
}

function report(io: CliIo, argv: readonly string[], message: string, code?: string) {
  if (errorFormat(argv) === "json") {
    io.stderr.write(
      `${JSON.stringify(code === undefined ? { error: message } : { error: message, code })}\n`,
    );
  } else {
    // The message may come from a daemon: no control characters reach the terminal.
    io.stderr.write(`error: ${cell(message, 2000)}\n`);
  }
}

/** Runs the CLI on `argv` (without node and script); resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here too, with exit code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof UsageError) {
      report(io, argv, error.message, "usage");
      return EXIT.usage;
    }
    if (error instanceof DaemonError) {
      report(io, argv, error.message, error.code);
      return error.code !== undefined && REFUSAL_CODES.has(error.code) ? EXIT.refused : EXIT.error;
    }
    if (error instanceof DaemonUnreachable) {
      report(io, argv, error.message, "daemon_unreachable");
      return EXIT.error;
    }
    if (error instanceof UnexpectedAnswer) {
      report(io, argv, error.message, "unexpected_answer");
      return EXIT.error;
    }
    report(io, argv, error instanceof Error ? error.message : String(error));
    return EXIT.error;
  }
}
