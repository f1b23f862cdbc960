// `tideline session history <id>` (the ledger grouped by turn) and `tideline session
// events <id>` (the ledger, filtered): raw rows, never folded, one per line.
import { type Command, InvalidArgumentError } from "commander";
import { EventList, History } from "../../src/contract/history";
import { type CliIo, contextFor } from "../context";
import { renderTable } from "../output";
import { EVENT_HEADERS, eventRow } from "./event-rows";

function nonNegative(name: string) {
  return (value: string) => {
    if (!/^\d{1,15}$/.test(value))
      throw new InvalidArgumentError(`${name} needs a whole number, got "${value}"`);
    return Number(value);
  };
}

export function registerSessionLog(session: Command, io: CliIo) {
  session
    .command("history")
    .description("Show a session's ledger grouped by turn")
    .argument("<session-id>", "the session")
    .option("--turn <turn-id>", "only this turn")
    .addHelpText(
      "after",
      "\nExamples:\n  tideline session history 01JD8K3M5V7XQ2R9T4W6Y8Z0AB -o json",
    )
    .action(async (sessionId: string, options: { turn?: string }, command: Command) => {
      const cx = contextFor(command, io);
      const query = options.turn ? `?${new URLSearchParams({ turn_id: options.turn })}` : "";
      const history = await cx.client.get(
        History,
        `${await cx.client.sessionPath(sessionId, "/history")}${query}`,
      );
      const flat = history.history.flatMap((group) =>
        group.events.map((event) => ({ ...event, turn_id: event.turn_id || group.turn_id })),
      );
      if (cx.machine({ json: history, jsonl: flat, toon: ["history", flat] })) return;
      if (flat.length === 0) return cx.out("No events.");
      cx.out(
        renderTable(
          EVENT_HEADERS,
          flat.map((event) => eventRow(event)),
          cx.colours,
        ),
      );
    });

  session
    .command("events")
    .description("Show a session's ledger events")
    .argument("<session-id>", "the session")
    .option("--type <type>", "only events of this type (e.g. session.compaction_fired)")
    .option("--turn <turn-id>", "only this turn's events")
    .option("--after <sequence>", "only events after this sequence", nonNegative("--after"))
    .option("--limit <n>", "at most this many events (the daemon caps it)", nonNegative("--limit"))
    .addHelpText(
      "after",
      "\nExamples:\n  tideline session events 01JD8K3M5V7XQ2R9T4W6Y8Z0AB --type session.compaction_fired\n  tideline session events 01JD8K3M5V7XQ2R9T4W6Y8Z0AB --turn t_42 -o jsonl",
    )
    .action(
      async (
        sessionId: string,
        options: { type?: string; turn?: string; after?: number; limit?: number },
        command: Command,
      ) => {
        const cx = contextFor(command, io);
        const params = new URLSearchParams();
        if (options.type) params.set("type", options.type);
        if (options.turn) params.set("turn_id", options.turn);
        if (options.after !== undefined) params.set("after_sequence", String(options.after));
        if (options.limit !== undefined) params.set("limit", String(options.limit));
        const query = params.size > 0 ? `?${params}` : "";
        const list = await cx.client.get(
          EventList,
          `${await cx.client.sessionPath(sessionId, "/events")}${query}`,
        );
        if (cx.machine({ json: list, jsonl: list.events, toon: ["events", list.events] })) return;
        if (list.events.length === 0) return cx.out("No events.");
        cx.out(
          renderTable(
            EVENT_HEADERS,
            list.events.map((event) => eventRow(event)),
            cx.colours,
          ),
        );
      },
    );
}
