// `tideline session usage <id> [--turns]`: the session's usage, or per turn with the
// compaction markers.
import type { Command } from "commander";
import { type CliIo, contextFor } from "../context";
import { contextAfterOf } from "../context-after";
import { cell, renderSection, renderTable } from "../output";
import { type SessionUsage, UsageEnvelope, UsageTurns } from "../wire";

const number = (value: number | null | undefined) =>
  value === undefined || value === null ? "-" : value.toLocaleString("en-US");

function contextLine(context: SessionUsage["context"]): string {
  if (context === undefined || context === null) return "not reported by this daemon";
  const state = context.state ?? "unknown";
  if (context.used === undefined || context.used === null) return state;
  const size = context.size === undefined || context.size === null ? "?" : number(context.size);
  const ratio = typeof context.ratio === "number" ? ` (${Math.round(context.ratio * 100)} %)` : "";
  return `${number(context.used)} / ${size} tokens${ratio}, ${state}`;
}

function cost(amount: number | null | undefined, currency: string | null | undefined) {
  return amount === undefined || amount === null
    ? "-"
    : `${amount.toFixed(4)} ${currency ?? ""}`.trim();
}

/** Only a completed compaction has an "after" worth showing (as in the web's rows). */
function afterCell(marker: UsageTurns["compactions"][number], usage: UsageTurns): string {
  if (marker.status !== "completed") return "-";
  const after = contextAfterOf(marker, usage);
  return after === undefined ? "-" : `${number(after.used)} / ${number(after.size)}`;
}

export function registerSessionUsage(session: Command, io: CliIo) {
  session
    .command("usage")
    .description("Show a session's context and token usage")
    .argument("<session-id>", "the session")
    .option("--turns", "per turn, with one marker per observed compaction")
    .addHelpText(
      "after",
      "\nExamples:\n  tideline session usage 01JD8K3M5V7XQ2R9T4W6Y8Z0AB\n  tideline session usage 01JD8K3M5V7XQ2R9T4W6Y8Z0AB --turns -o json",
    )
    .action(async (sessionId: string, options: { turns?: boolean }, command: Command) => {
      const cx = contextFor(command, io);
      if (options.turns) {
        const usage = await cx.client.get(
          UsageTurns,
          await cx.client.sessionPath(sessionId, "/usage/turns"),
        );
        const records = [
          ...usage.turns.map((turn) => ({ turn })),
          ...usage.compactions.map((compaction) => ({ compaction })),
        ];
        if (cx.machine({ json: usage, jsonl: records, toon: ["session_usage_turns"] })) return;
        cx.out(
          usage.turns.length === 0
            ? "No turns."
            : renderTable(
                ["TURN", "SEQ", "INPUT", "OUTPUT", "CONTEXT", "COST"],
                usage.turns.map((turn) => [
                  cell(turn.turn_id, 40),
                  cell(turn.sequence),
                  number(turn.usage?.input_tokens),
                  number(turn.usage?.output_tokens),
                  turn.usage?.context_used === undefined || turn.usage?.context_used === null
                    ? "-"
                    : `${number(turn.usage.context_used)} / ${number(turn.usage.context_size)}`,
                  cost(turn.usage?.cost_amount, undefined),
                ]),
                cx.colours,
              ),
        );
        if (usage.compactions.length > 0) {
          cx.out(
            `\n${renderTable(
              [
                "COMPACTION",
                "TURN",
                "SEQ",
                "AT",
                "TRIGGER",
                "STATUS",
                "CONTEXT BEFORE",
                "CONTEXT AFTER",
              ],
              usage.compactions.map((marker) => [
                cell(marker.compaction_id, 40),
                cell(marker.turn_id, 28),
                cell(marker.sequence),
                cell(marker.at),
                cell(marker.trigger),
                cell(marker.status),
                marker.context_used === undefined || marker.context_used === null
                  ? "-"
                  : `${number(marker.context_used)} / ${number(marker.context_size)}`,
                afterCell(marker, usage),
              ]),
              cx.colours,
            )}`,
          );
        }
        return;
      }
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
    });
}
