// `tideline session audit <id> [--compaction ID]`: what a compaction's summary kept and
// dropped of the turns it replaced (ADR 0157). Exits 6 when a pinned message was dropped, so
// a `context.post_compact` hook or a script can act on it.
import type { Command } from "commander";
import { type AuditItem, CompactionAudit } from "../../src/contract/compaction-audit";
import { UsageTurns } from "../../src/contract/usage";
import { type CliIo, contextFor } from "../context";
import { DaemonError } from "../daemon-client";
import { EXIT } from "../exit-codes";
import { cell, type Paint, renderTable, toJson, toJsonLines, toToon, UsageError } from "../output";

function rows(items: readonly AuditItem[], colours: Paint): string[][] {
  return items.map((item) => [
    item.status === "dropped" ? colours.red(item.status) : item.status,
    item.pinned && item.kind !== "pinned" ? `${item.kind} (pinned)` : item.kind,
    cell(item.label, 60),
    cell(item.why, 70),
  ]);
}

function renderAudit(audit: CompactionAudit, colours: Paint): string {
  const { span, counts } = audit;
  const turns =
    span.turns === 0
      ? "replaced no turns"
      : span.first_turn_number === span.last_turn_number
        ? `replaced turn ${span.first_turn_number}`
        : `replaced turns ${span.first_turn_number}–${span.last_turn_number}`;
  const lines = [
    colours.bold(`Compaction ${cell(audit.compaction_id)} · ${turns} · ${span.messages} messages`),
    audit.summary_readable
      ? `The summary kept ${counts.kept} of ${counts.total} · ${counts.dropped} dropped`
      : `The summary is not readable, so nothing could be checked (${counts.total} items)`,
  ];
  if (audit.pinned_dropped.length > 0) {
    lines.push(colours.red(`Pinned and dropped: ${audit.pinned_dropped.length}`));
  }
  if (audit.items.length > 0) {
    lines.push(
      "",
      renderTable(["STATUS", "KIND", "ITEM", "WHY"], rows(audit.items, colours), colours),
    );
  }
  if (audit.omitted > 0) lines.push(`… and ${audit.omitted} more not listed`);
  const previous = audit.previous;
  if (previous !== null) {
    lines.push(
      "",
      `Since the previous summary (${cell(previous.compaction_id)}): ${previous.lost.length} lost`,
    );
    if (previous.lost.length > 0) {
      lines.push(
        renderTable(["STATUS", "KIND", "ITEM", "WHY"], rows(previous.lost, colours), colours),
      );
    }
  }
  return lines.join("\n");
}

/** The newest compaction the turns list knows, preferring a completed one. */
function newestCompaction(usage: UsageTurns): string | undefined {
  const markers = usage.compactions;
  const completed = markers.filter((marker) => marker.status === "completed");
  return (completed.at(-1) ?? markers.at(-1))?.compaction_id;
}

export function registerSessionAudit(session: Command, io: CliIo, exit: (code: number) => void) {
  session
    .command("audit")
    .description("Show what a compaction's summary kept and dropped of the turns it replaced")
    .argument("<session-id>", "the session")
    .option("--compaction <id>", "the compaction to audit (default: the newest)")
    .addHelpText(
      "after",
      `
Exits 6 when the summary dropped a message the person pinned (0 otherwise), so a
context.post_compact hook can remind the agent or stop.

Examples:
  tideline session audit 01JD8K3M5V7XQ2R9T4W6Y8Z0AB
  tideline session audit 01JD8K3M5V7XQ2R9T4W6Y8Z0AB --compaction cmp_42 -o json`,
    )
    .action(async (sessionId: string, options: { compaction?: string }, command: Command) => {
      const cx = contextFor(command, io);
      let compactionId = options.compaction?.trim();
      if (options.compaction !== undefined && compactionId === "") {
        throw new UsageError("--compaction needs a compaction id");
      }
      if (compactionId === undefined) {
        const usage = await cx.client.get(
          UsageTurns,
          await cx.client.sessionPath(sessionId, "/usage/turns"),
        );
        compactionId = newestCompaction(usage);
        if (compactionId === undefined) {
          throw new DaemonError(404, "not_found", `session ${sessionId} has no compaction yet`);
        }
      }
      const path = await cx.client.sessionPath(
        sessionId,
        `/compactions/${encodeURIComponent(compactionId)}/audit`,
      );
      const audit = await cx.client.get(CompactionAudit, path).catch((error: unknown) => {
        // A route the daemon does not have answers without our error envelope's code.
        if (
          error instanceof DaemonError &&
          error.code === undefined &&
          [404, 405].includes(error.status)
        ) {
          throw new DaemonError(
            error.status,
            "audit_unsupported",
            "this daemon does not serve the compaction audit (a Tideline extension)",
          );
        }
        throw error;
      });
      if (cx.format === "json") cx.out(toJson(audit));
      else if (cx.format === "jsonl") cx.out(toJsonLines(audit.items.map((item) => ({ item }))));
      else if (cx.format === "toon") cx.out(toToon("compaction_audit", audit));
      else cx.out(renderAudit(audit, cx.colours));
      if (audit.pinned_dropped.length > 0) exit(EXIT.pinnedDropped);
    });
}
