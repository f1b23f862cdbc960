// The long answer `/demo fill` streams: a walkthrough like a real agent's, with headings,
// prose, lists, a table and code, so the welcome session's long reply reads as one and a
// client's folding, Markdown and scrolling are tried on realistic text. Taken whole section
// by section up to the size asked for (never cut mid-sentence); the fill's file read makes
// up whatever is left.

const SECTIONS: readonly string[] = [
  `## What the context meter has to promise

The meter answers one question: how much of the model's context window is in use right now, and how sure are we of that number. Everything else follows from keeping that answer honest. A number that is stale, guessed or carried over from before a compaction is worse than no number, because people plan their next prompt around it.

So the rule of thumb for every change below: show a figure only when the agent reported it, say when it is an estimate, and say "unknown" when a compaction has cleared the old reading and nothing new has arrived yet.`,

  `## How the reading flows

1. The agent sends a \`usage_update\` with \`used\` and \`size\` (and, for some agents, a running \`cost\`).
2. The daemon appends it to the ledger as a \`usage\` row, in the same transaction as the turn's other frames.
3. The usage projection merges it into the turn's row and the session totals, so no read ever scans the ledger.
4. \`GET …/usage\` answers the newest reading, unless a compaction finished after it: then the state is \`unknown\` with \`cleared_by\` naming that compaction.
5. Each transcript frame on the stream tells the SPA that usage may have moved; it re-reads it at most once a second and the meter follows.

Nothing in the browser computes a reading of its own. The SPA formats, it never infers.`,

  `## The component

The meter itself is small. It reads a view model derived in a sibling file, so the component only renders:

\`\`\`tsx
export function ContextMeter({ view }: { view: MeterView }) {
  if (view.kind === "unknown") {
    return (
      <p role="status" aria-label="Context window">
        Context usage unknown
      </p>
    );
  }
  return (
    <meter
      aria-label="Context window"
      min={0}
      max={view.size}
      value={view.used}
      aria-valuetext={view.valueText}
    />
  );
}
\`\`\`

A native \`<meter>\` gives screen readers the value for free; \`aria-valuetext\` adds the words ("42 % used, 84K of 200K tokens") so nobody has to do arithmetic.`,

  `## Deriving the view

\`deriveMeterView\` takes the usage answer and the compaction markers and decides between four states:

| State | When | What the meter shows |
| --- | --- | --- |
| reported | the agent sent \`used\` and \`size\` | the bar and "N % used" |
| estimated_size | \`used\` is known, the window came from the catalog | the bar, marked as estimated |
| unknown | a compaction cleared the reading | "Context usage unknown" and why |
| unavailable | this daemon reports no context | a short note, no bar |

The markers matter because a usage answer can be older than a compaction the stream already announced. When the newest marker's sequence is above the reading's, the view says unknown even before the next fetch lands.`,

  `## Edge cases worth a test each

- A compaction that completes with no usage report after it (Codex does this): unknown until the next turn.
- A \`used\` above \`size\`: show the figure, cap the bar at full, and say "over the window".
- A window of zero or a negative count from a misbehaving agent: refuse the reading instead of dividing by it.
- Two readings in one turn: the newest wins; the turn's figure in the list is the last one.
- A reconnect in the middle of a turn: the stream's replay must not double-count the reading.
- A daemon without \`/usage/turns\` (older releases): hide the list and the chart, keep the meter.`,

  `## Wiring it into the rail

The rail stacks the meter, Compact now, the chart and the turns list. The meter and Compact now are cheap and render at once; the chart and the list can be thousands of nodes in a long session, so they render deferred:

\`\`\`tsx
const shownTurns = useDeferredValue(turns.data);
return (
  <div className="flex flex-col gap-6 p-4">
    <ContextMeter view={meter} onRetry={() => void usage.refetch()} />
    <CompactNow session={session} detail={detail} />
    {shownTurns ? <ContextChart data={shownTurns} /> : <p>Loading turns</p>}
  </div>
);
\`\`\`

Keep the query keys in the factory (\`usageQueries.usageKey(id)\`); the stream hook invalidates exactly those keys, and an inline key would silently never refresh.`,

  `## Compact now

The button asks the daemon to run the agent's advertised compaction command as its own turn. It is disabled while a turn runs, while its own request is in flight, and when the session is not active, and each disabled state says why in words next to it rather than in a tooltip.

A refusal comes back as a typed error: \`session_busy\` when another client won the race, \`compaction_unsupported\` when the agent advertises neither \`compact\` nor \`compress\`. Both are shown under the button and cleared when the turn ends, so a stale refusal never lingers next to an enabled button.`,

  `## Before and after figures

Each compaction row shows what it freed: "180K → 42K tokens". The "before" is the reading the compaction started from; the "after" is the first reading the agent reported once the compaction had finished, and before any other compaction began. That last condition matters when two compactions run back to back: the first one's "after" must never be the second one's result.

When only one side is known, show that side alone ("180K tokens before"). A failed or cancelled compaction changed nothing you can count on, so it shows only where it started, with no arrow.`,

  `## Tests I would add

\`\`\`ts
it("when a compaction clears the reading, then the meter says unknown until the agent reports again", async () => {
  const session = await daemon.createActiveSession();
  await promptAndWait(daemon, session.id, "Sketch the usage projection");
  await promptAndWait(daemon, session.id, "/demo codex");
  await compactAndWait(daemon, session.id);
  const { usage } = await readUsage(daemon, session.id);
  expect(usage.context).toMatchObject({ state: "unknown" });
  expect(usage.context).not.toHaveProperty("used");
});
\`\`\`

Plus a component test per state of the table above, queried by role and accessible name, and one end-to-end run in Chromium that watches the meter go from a figure to unknown and back.`,

  `## Performance notes

- The projection is incremental: one row per turn, updated in place, so \`/usage/turns\` is O(turns) and never touches the ledger.
- The newest reading is a point lookup on the \`(session_id, type, sequence)\` index.
- In the browser, the chart draws at most a few dozen hover markers however long the session; the line still passes through every reading.
- Formatting numbers with \`Intl.NumberFormat\` is the expensive part of a long list: format lazily, only for rows that are shown.`,

  `## Accessibility checklist

- The meter has an accessible name ("Context window") and a value text in words.
- Colour is never the only signal: the warning band also changes the wording.
- The chart is an image with a one-sentence summary, and its data is also a table for screen readers.
- Compact now keeps focus while its request is in flight, and its disabled reason is real text.
- Every state works at 360 px wide and in both themes.`,

  `## Open questions

1. Should the meter warn before the agent's own auto-compaction threshold? The daemon does not know that threshold, so any warning band would be a guess; I would leave it out until agents report it.
2. Should the turns list show cache reads? They explain cost but not context, so they belong in the detail line, not the headline figure.
3. How long should "unknown" last after a compaction that reports nothing? Until the next genuine reading, however long that takes: inventing a figure is exactly what the meter must not do.`,

  `## Full listing: \`context-meter-view.ts\`

Here is the whole view model, so you can paste it as it is:

\`\`\`ts
import type { CompactionMarker, SessionUsage } from "../../contract/usage";
import { formatTokens } from "../../lib/format-tokens";

export type MeterView =
  | { kind: "reported"; used: number; size: number; percent: number; valueText: string; estimated: boolean }
  | { kind: "unknown"; reason: string }
  | { kind: "unavailable" };

const WAITING = "Context compacted. Waiting for the agent's next usage report.";

/** The newest marker's sequence, or -1 when the session never compacted. */
function newestCompaction(markers: readonly CompactionMarker[] | undefined): number {
  let newest = -1;
  for (const marker of markers ?? []) {
    if (marker.status === "completed" && marker.sequence > newest) newest = marker.sequence;
  }
  return newest;
}

export function deriveMeterView(
  usage: SessionUsage | undefined,
  markers: readonly CompactionMarker[] | undefined,
): MeterView {
  const context = usage?.context;
  if (context === undefined) return { kind: "unavailable" };
  if (context.state === "unknown" || context.used === undefined) {
    return { kind: "unknown", reason: context.cleared_by ? WAITING : "No reading yet." };
  }
  // A reading older than a compaction the stream already announced is not current.
  if ((context.sequence ?? -1) < newestCompaction(markers)) {
    return { kind: "unknown", reason: WAITING };
  }
  const size = context.size;
  if (size === undefined || size <= 0) {
    return { kind: "unknown", reason: "The agent reported no window size." };
  }
  const percent = Math.min(100, Math.round((context.used / size) * 100));
  const estimated = context.state === "estimated_size";
  const valueText = [
    \`\${percent} % used\`,
    \`\${formatTokens(context.used)} of \${formatTokens(size)} tokens\`,
    estimated ? "window size estimated" : undefined,
  ]
    .filter(Boolean)
    .join(", ");
  return { kind: "reported", used: context.used, size, percent, valueText, estimated };
}
\`\`\``,

  `## Full listing: \`context-meter-view.test.ts\`

And the tests that pin each state down. Each one fails without the rule it names:

\`\`\`ts
import { describe, expect, it } from "vitest";
import { deriveMeterView } from "./context-meter-view";

const reported = (used: number, size = 200_000, sequence = 10) => ({
  turn_count: 1,
  context: { state: "reported" as const, used, size, sequence },
});

describe("deriveMeterView", () => {
  it("when the agent reported a reading, then the meter shows it with words", () => {
    expect(deriveMeterView(reported(84_000), [])).toMatchObject({
      kind: "reported",
      percent: 42,
      valueText: "42 % used, 84K of 200K tokens",
    });
  });

  it("when a compaction cleared the reading, then it is unknown and says why", () => {
    const usage = {
      turn_count: 2,
      context: { state: "unknown" as const, cleared_by: { compaction_id: "c1", sequence: 12 } },
    };
    expect(deriveMeterView(usage, [])).toEqual({
      kind: "unknown",
      reason: "Context compacted. Waiting for the agent's next usage report.",
    });
  });

  it("when the reading is older than a completed compaction, then it is not shown as current", () => {
    const marker = {
      turn_id: "t2",
      sequence: 20,
      at: "2026-11-30T08:00:00Z",
      compaction_id: "c1",
      trigger: "agent" as const,
      status: "completed",
    };
    expect(deriveMeterView(reported(150_000, 200_000, 15), [marker]).kind).toBe("unknown");
    expect(deriveMeterView(reported(30_000, 200_000, 25), [marker]).kind).toBe("reported");
  });

  it("when a reading passes its window, then the bar is full and the words say so", () => {
    expect(deriveMeterView(reported(230_000), [])).toMatchObject({ percent: 100 });
  });

  it("when the window is zero or missing, then no percentage is invented", () => {
    expect(deriveMeterView(reported(5_000, 0), []).kind).toBe("unknown");
  });

  it("when the daemon predates context readings, then the meter says so instead of 0 %", () => {
    expect(deriveMeterView({ turn_count: 0 }, [])).toEqual({ kind: "unavailable" });
  });
});
\`\`\``,

  `## Full listing: the usage projection's merge

The part of the daemon that keeps one row per turn. The comments carry the reasons:

\`\`\`ts
/** Last non-null value per field wins; \`timestamp\` is the newest contributing row. */
function mergeTurn(row: LedgerRow, fields: Record<string, number | string | null>): void {
  if (row.turn_id === null) return;
  const stored = turnUsage.get(row.session_id, row.turn_id);
  const merged = stored?.usage ? (JSON.parse(stored.usage) as Record<string, unknown>) : {};
  for (const [name, value] of Object.entries(fields)) {
    // A field the report left out keeps the turn's earlier value: a counter-only report
    // must not erase the context reading, and the reverse.
    if (value !== null) merged[name] = value;
  }
  merged.timestamp = row.created_at;
  setTurnUsage.run(JSON.stringify(merged), row.session_id, row.turn_id);
}

function applyUsage(row: LedgerRow): void {
  const used = numberOrNull(row.content.context_used);
  const amount = numberOrNull(row.content.cost_amount);
  mergeTurn(row, {
    context_used: used,
    context_size: numberOrNull(row.content.context_size),
    // Which report the figure came from: the chart orders readings by it.
    context_sequence: used === null ? null : row.sequence,
    cost_amount: amount,
  });
  // ACP's cost is the session's running total: the newest one is the total.
  if (amount !== null) setCost.run(amount, row.session_id);
}
\`\`\`

The projection runs inside the same transaction as the ledger append, so a reader never sees a turn row ahead of its ledger rows, or the other way round.`,

  `## Full listing: an end-to-end check in Chromium

The unit tests prove the rules; this one proves a person sees them, against the real daemon and the demo agent:

\`\`\`ts
test("when a compaction completes, then the row, the turns list and the chart agree", async ({ tideline }) => {
  const session = await tideline.createSession("Meter agreement");
  await tideline.open(session);
  await tideline.send("/demo fill 60");
  await tideline.waitIdle(session);
  await tideline.compactNow.click();
  await expect(tideline.timeline.getByRole("status", { name: "Context compacted" })).toBeVisible();
  await tideline.waitIdle(session);

  // The row: what the compaction freed, from the readings around it.
  const row = tideline.timeline.locator("p").filter({ hasText: /120K → 24K tokens$/ });
  await expect(row).toBeVisible();

  // The turns list says the same, newest first.
  const turns = tideline.rail.getByRole("list", { name: "Turns" });
  await expect(turns.getByText(/· completed · 120K → 24K$/)).toBeVisible();

  // And so does the chart's table, in the order the readings were reported.
  const table = tideline.rail.getByRole("table", { name: "Context over time" });
  await expect(table.getByRole("row", { name: /Compaction/ })).toContainText("120K → 24K");

  // Both themes, wide and narrow, each audited for accessibility.
  await tideline.screenshot("meter-agreement");
});
\`\`\`

Run it alone while you work on the meter (\`npx playwright test e2e/context.spec.ts\`): the whole suite takes minutes, and this file covers everything the change touches.`,

  `## Rollout

- Land the projection change first: it only adds a field (\`context_sequence\`) and a derived figure, so older clients ignore both.
- Then the SPA: the meter's view model, the chart's ordering and its scale, and the turns list's wording, behind no flag (each is a correction, not a feature).
- Then the CLI's \`--turns\` table, which gains a CONTEXT AFTER column. Scripts that read \`-o json\` see the daemon's payload unchanged apart from the new fields.
- Regenerate the README's screenshots last, so they show the corrected figures.

Nothing needs a migration: a ledger written before the change simply lacks \`context_sequence\`, and the chart falls back to report times for those turns.`,

  `## Glossary

- **Reading**: one \`usage_update\` the agent sent, with \`used\` and usually \`size\`.
- **Window**: the model's context size, from the agent or, failing that, the daemon's catalog (then marked estimated).
- **Marker**: one observed compaction, with its trigger, status and the reading it started from.
- **Before / after**: the reading a compaction started from, and the first one reported once it finished and before any other began.
- **Report order**: the order readings reached the daemon, by ledger sequence; never the order their turns started in.
- **Unknown**: the honest state between a compaction and the next genuine reading.`,

  `## Summary

The meter shows what the agent reported and nothing else; a compaction clears it until a new reading arrives; every compaction row says what it freed, measured from the right readings; and the chart draws readings in the order they were reported, so a drop sits exactly where the compaction happened. The changes touch the usage projection, the meter's view model, the rail and their tests, and each one comes with a test that fails without it.`,
];

/** The answer's sections, whole, in order, as many as fit in `maxChars` (joined by a blank line). */
export function fillAnswer(maxChars: number): string {
  const taken: string[] = [];
  let length = 0;
  for (const section of SECTIONS) {
    const added = (taken.length === 0 ? 0 : 2) + section.length;
    if (length + added > maxChars) break;
    taken.push(section);
    length += added;
  }
  return taken.join("\n\n");
}

/** The whole answer's length, for tests and for sizing the file read that follows it. */
export const FILL_ANSWER_CHARS = SECTIONS.join("\n\n").length;
