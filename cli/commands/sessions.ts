// `tideline sessions`: every session the daemon knows, newest activity first.
import type { Command } from "commander";
import { type CliIo, contextFor } from "../context";
import { cell, renderTable } from "../output";

export function registerSessions(program: Command, io: CliIo) {
  program
    .command("sessions")
    .description("List sessions (all pages)")
    .option("--workspace <id>", "only this workspace's sessions")
    .option("--state <state>", "only sessions in this state (starting, active, stopping, stopped)")
    .addHelpText(
      "after",
      "\nExamples:\n  tideline sessions\n  tideline sessions --state active -o json",
    )
    .action(async (options: { workspace?: string; state?: string }, command: Command) => {
      const cx = contextFor(command, io);
      const sessions = await cx.client.listSessions(options);
      if (cx.machine({ json: { sessions }, jsonl: sessions, toon: ["sessions", sessions] })) {
        return;
      }
      if (sessions.length === 0) return cx.out("No sessions.");
      cx.out(
        renderTable(
          ["ID", "AGENT", "STATE", "RUNNING TURN", "NAME", "UPDATED"],
          sessions.map((session) => [
            session.id,
            cell(session.agent_name, 20),
            cell(session.state),
            cell(session.activity?.turn_id, 28),
            cell(session.name, 40),
            cell(session.updated_at),
          ]),
          cx.colours,
        ),
      );
    });
}
