// `tideline session compact <id>`: Compact now, then wait for the compaction turn to end
// and report the outcome of its newest compaction snapshot.
import type { Command } from "commander";
import { CompactAccepted } from "../../src/contract/commands";
import { compactionOutcome, outcomeExitCode, outcomeLine } from "../compaction-outcome";
import { type CliIo, contextFor } from "../context";
import { followTurn } from "../turn-follower";

export function registerSessionCompact(session: Command, io: CliIo, exit: (code: number) => void) {
  session
    .command("compact")
    .description(
      "Ask the agent to compact its context (its /compact or /compress command) and wait for the outcome",
    )
    .argument("<session-id>", "the session")
    .addHelpText(
      "after",
      `
Prints "Compaction requested: /<command> (prompt <id>)", then the outcome once the turn
ends. The outcome is the status of the newest compaction snapshot of that turn:
completed, failed, cancelled, another status the agent left it in, or not_reported when
the turn ended without the agent reporting a compaction.

Examples:
  tideline session compact 01JD8K3M5V7XQ2R9T4W6Y8Z0AB
  tideline session compact 01JD8K3M5V7XQ2R9T4W6Y8Z0AB -o json`,
    )
    .action(async (sessionId: string, _options: unknown, command: Command) => {
      const cx = contextFor(command, io);
      const path = await cx.client.sessionPath(sessionId, "/compact");
      const accepted = await cx.client.request(CompactAccepted, "POST", path, {});
      if (cx.format === "human") {
        cx.out(`Compaction requested: /${accepted.command} (prompt ${accepted.prompt_id})`);
      }
      const turn = await followTurn(cx.client, accepted.session_id, accepted.prompt_id);
      const result = compactionOutcome(turn.events);
      const record = {
        session_id: accepted.session_id,
        prompt_id: accepted.prompt_id,
        command: accepted.command,
        outcome: result.outcome,
      };
      if (!cx.machine({ json: record, toon: ["session_compact"] })) {
        const line = outcomeLine(result);
        const { green, red, yellow } = cx.colours;
        const code = outcomeExitCode(result.outcome);
        cx.out(code === 0 ? green(line) : code === 4 ? red(line) : yellow(line));
      }
      exit(outcomeExitCode(result.outcome));
    });
}
