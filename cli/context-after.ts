// A compaction's "after" figure for `session usage --turns` (ADR 0121): the reference
// daemon sends it (`context_after`, null when there is none yet); for a daemon that does
// not (CompozyOS), the same rule in report order: the first turn reading stamped after the
// compaction's newest snapshot and before the next compaction's, ties broken by sequence.
import type { UsageTurns } from "./wire";

type Marker = UsageTurns["compactions"][number];
type TurnRow = UsageTurns["turns"][number];
export type After = { used: number; size?: number | undefined };

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

type Key = readonly [number, number];
const before = (a: Key, b: Key) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

function markerKey(marker: Marker): Key | undefined {
  const at = Date.parse(marker.at ?? "");
  return Number.isNaN(at) ? undefined : [at, marker.sequence ?? 0];
}

function turnKey(turn: TurnRow): Key | undefined {
  if (typeof turn.usage?.context_used !== "number") return undefined;
  const at = Date.parse(turn.usage.timestamp ?? "");
  return Number.isNaN(at) ? undefined : [at, turn.sequence ?? 0];
}

function sentAfter(value: unknown): After | null | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null) return null;
  const { used, size } = value as { used?: unknown; size?: unknown };
  if (typeof used !== "number") return null;
  return { used, size: typeof size === "number" ? size : undefined };
}

export function contextAfterOf(marker: Marker, usage: UsageTurns): After | undefined {
  const sent = sentAfter((marker as { context_after?: unknown }).context_after);
  if (sent !== undefined) return sent ?? undefined;
  const ended = markerKey(marker);
  if (ended === undefined || !TERMINAL.has(marker.status ?? "")) return undefined;
  let next: Key | undefined;
  for (const other of usage.compactions) {
    const key = markerKey(other);
    if (key && before(ended, key) && (next === undefined || before(key, next))) next = key;
  }
  let best: { turn: TurnRow; key: Key } | undefined;
  for (const turn of usage.turns) {
    const key = turnKey(turn);
    if (key === undefined || !before(ended, key) || (next && !before(key, next))) continue;
    if (best === undefined || before(key, best.key)) best = { turn, key };
  }
  const used = best?.turn.usage?.context_used;
  if (typeof used !== "number") return undefined;
  const size = best?.turn.usage?.context_size;
  return { used, size: typeof size === "number" ? size : undefined };
}
