// The labelled corpus: precision and recall of the audit on "dropped", against what a
// careful reader marked. Fails below 0.9 for either, and on any item the labels miss.
import { describe, expect, it } from "vitest";
import type { CompactionAudit } from "../types";
import { CODING_CASES } from "./cases-coding";
import { LONG_CASES } from "./cases-long";
import { SESSION_CASES } from "./cases-sessions";
import type { Label } from "./corpus-types";
import { RECORDED_CASES } from "./recorded-cases";
import { runCase, runRecorded } from "./run-corpus";

type Outcome = { name: string; audit: CompactionAudit; labels: Record<string, Label> };

const outcomes: Outcome[] = [
  ...[...CODING_CASES, ...SESSION_CASES, ...LONG_CASES].map((corpusCase) => ({
    name: corpusCase.name,
    audit: runCase(corpusCase),
    labels: corpusCase.labels,
  })),
  ...RECORDED_CASES.map((recorded) => ({
    name: recorded.name,
    audit: runRecorded(recorded),
    labels: recorded.labels,
  })),
];

describe("the labelled compaction corpus", () => {
  it("holds at least 25 compactions, the recorded Claude Code and Codex sessions among them", () => {
    expect(outcomes.length).toBeGreaterThanOrEqual(25);
    expect(outcomes.some((outcome) => outcome.name.startsWith("Claude Code"))).toBe(true);
    expect(outcomes.some((outcome) => outcome.name.startsWith("Codex"))).toBe(true);
  });

  it("labels every item the audit lists, and the audit lists every labelled item", () => {
    const unlabelled: string[] = [];
    const missing: string[] = [];
    for (const { name, audit, labels } of outcomes) {
      const keys = new Set(audit.items.map(labelKey));
      for (const item of audit.items) {
        if (item.status !== "unchecked" && labels[labelKey(item)] === undefined) {
          unlabelled.push(`${name}: ${labelKey(item)} (${item.status}: ${item.why})`);
        }
      }
      for (const key of Object.keys(labels)) if (!keys.has(key)) missing.push(`${name}: ${key}`);
    }
    expect(unlabelled).toEqual([]);
    expect(missing).toEqual([]);
  });

  it("finds what the summaries dropped with precision and recall of at least 0.9", () => {
    let truePositives = 0;
    let falsePositives = 0;
    let falseNegatives = 0;
    const misses: string[] = [];
    for (const { name, audit, labels } of outcomes) {
      const predicted = new Map(audit.items.map((item) => [labelKey(item), item]));
      for (const [key, label] of Object.entries(labels)) {
        const item = predicted.get(key);
        const saidDropped = item?.status === "dropped";
        if (label === "dropped" && saidDropped) truePositives += 1;
        else if (label === "dropped") {
          falseNegatives += 1;
          misses.push(`missed   ${name}: ${key} (${item?.why ?? "not listed"})`);
        } else if (saidDropped) {
          falsePositives += 1;
          misses.push(`wrongly  ${name}: ${key} (${item?.why})`);
        }
      }
    }
    const precision = truePositives / (truePositives + falsePositives);
    const recall = truePositives / (truePositives + falseNegatives);
    console.log(
      `compaction audit corpus: ${outcomes.length} compactions, dropped: ${truePositives} found, ${falsePositives} wrongly, ${falseNegatives} missed; precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}\n${misses.join("\n")}`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });

  it("marks a compaction without a readable summary unchecked, never dropped", () => {
    const unreadable = outcomes.filter((outcome) => !outcome.audit.summary_readable);
    expect(unreadable.map((outcome) => outcome.name)).toEqual([
      "Codex-style compaction without a summary",
      "failed compaction has nothing to check",
      "Codex 2.6.0: hello, then /compact (no summary)",
      "Codex 2.6.0: session/load replays a compaction (no summary)",
    ]);
    for (const { audit } of unreadable) {
      expect(audit.counts.dropped).toBe(0);
      expect(audit.items.length).toBeGreaterThan(0);
      expect(audit.items.every((item) => item.status === "unchecked")).toBe(true);
    }
  });
});

/** Labels name the last request `last_request:<id>`; every other item by its key. */
function labelKey(item: CompactionAudit["items"][number]): string {
  return item.kind === "last_request"
    ? `last_request:${item.key.slice("instruction:".length)}`
    : item.key;
}
