// `tideline session usage <id> [--turns]`: the session's usage, or per turn with the
// compaction markers.
import type { Command } from "commander";
import {
  type CompactionMarker,
  contextAfterOf,
  type SessionUsage,
  UsageEnvelope,
  UsageTurns,
} from "../../src/contract/usage";
import { type CliIo, type CommandContext, contextFor } from "../context";
import { cell, renderSection, renderTable } from "../output";

const number = (value: number | null | undefined) =>
  value === undefined || value === null ? "-" : value.toLocaleString("en-US");

function contextLine(context: SessionUsage["context"]): string {
  if (context === undefined) return "not reported by this daemon";
  const { state } = context;
  if (context.used === undefined) return state;
  const size = context.size === undefined ? "?" : number(context.size);
  const ratio = context.ratio === undefined ? "" : ` (${Math.round(context.ratio * 100)} %)`;
  return `${number(context.used)} / ${size} tokens${ratio}, ${state}`;
}

/** "used / size" of a reading, or "-" when there is none. */
function figure(used: number | undefined, size: number | undefined): string {
  return used === undefined ? "-" : `${number(used)} / ${number(size)}`;
}

function cost(amount: number | null | undefined, currency: string | null | undefined) {
  return amount === undefined || amount === null
    ? "-"
    : `${amount.toFixed(4)} ${currency ?? ""}`.trim();
}

/** Only a completed compaction has an "after" worth showing (as in the web's rows). */
function afterCell(marker: CompactionMarker, usage: UsageTurns): string {
  if (marker.status !== "completed") return "-";
  const after = contextAfterOf(marker, usage);
  return after === undefined ? "-" : figure(after.used, after.size);
}

const EXAMPLES =
  "\nExamples:\n  tideline session usage 01JD8K3M5V7XQ2R9T4W6Y8Z0AB\n  tideline session usage 01JD8K3M5V7XQ2R9T4W6Y8Z0AB --turns -o json";

export function registerSessionUsage(session: Command, io: CliIo) {
  session
    .command("usage")
    .description("Show a session's context and token usage")
    .argument("<session-id>", "the session")
    .option("--turns", "per turn, with one marker per observed compaction")
    .addHelpText("after", EXAMPLES)
    .action(async (sessionId: string, options: { turns?: boolean }, command: Command) => {
      const cx = contextFor(command, io);
      if (options.turns) return showUsageTurns(cx, sessionId);
      return showUsage(cx, sessionId);
    });
}

async function showUsage(cx: CommandContext, sessionId: string) {
  const { usage } = await cx.client.get(
    UsageEnvelope,
    await cx.client.sessionPath(sessionId, "/usage"),
  );
  if (cx.machine({ json: usage, toon: ["session_usage"] })) return;
  cx.out(
    renderSection(
      [
        ["Context", contextLine(usage.context)],
        ["Input tokens", number(usage.input_tokens)],
        ["Output tokens", number(usage.output_tokens)],
        ["Total tokens", number(usage.total_tokens)],
        ["Cache read", number(usage.cache_read_tokens)],
        ["Cache write", number(usage.cache_write_tokens)],
        ["Cost", cost(usage.total_cost, usage.cost_currency)],
        ["Turns", number(usage.turn_count)],
      ],
      cx.colours,
    ),
  );
}

async function showUsageTurns(cx: CommandContext, sessionId: string) {
  const usage = await cx.client.get(
    UsageTurns,
    await cx.client.sessionPath(sessionId, "/usage/turns"),
  );
  const records = [
    ...usage.turns.map((turn) => ({ turn })),
    ...usage.compactions.map((compaction) => ({ compaction })),
  ];
  if (cx.machine({ json: usage, jsonl: records, toon: ["session_usage_turns"] })) return;
  cx.out(turnsTable(usage, cx));
  if (usage.compactions.length > 0) cx.out(`\n${markersTable(usage, cx)}`);
}

function turnsTable(usage: UsageTurns, cx: CommandContext): string {
  if (usage.turns.length === 0) return "No turns.";
  return renderTable(
    ["TURN", "SEQ", "INPUT", "OUTPUT", "CONTEXT", "COST"],
    usage.turns.map((turn) => [
      cell(turn.turn_id, 40),
      cell(turn.sequence),
      number(turn.usage?.input_tokens),
      number(turn.usage?.output_tokens),
      figure(turn.usage?.context_used, turn.usage?.context_size),
      cost(turn.usage?.cost_amount, undefined),
    ]),
    cx.colours,
  );
}

const MARKER_HEADERS = [
  "COMPACTION",
  "TURN",
  "SEQ",
  "AT",
  "TRIGGER",
  "STATUS",
  "CONTEXT BEFORE",
  "CONTEXT AFTER",
];

function markersTable(usage: UsageTurns, cx: CommandContext): string {
  return renderTable(
    MARKER_HEADERS,
    usage.compactions.map((marker) => [
      cell(marker.compaction_id, 40),
      cell(marker.turn_id, 28),
      cell(marker.sequence),
      cell(marker.at),
      cell(marker.trigger),
      cell(marker.status),
      figure(marker.context_used, marker.context_size),
      afterCell(marker, usage),
    ]),
    cx.colours,
  );
}
