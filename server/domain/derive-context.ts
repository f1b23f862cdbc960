// The context meter's reading (docs/ledger.md §5): the newest `usage` row, unless a
// compaction finished after it. Only `usage` rows count: prompt counters and costs never
// bring a cleared reading back, so the answer is the same after any restart.

import type { DaemonContextReading } from "../../src/contract/usage";
import type { z } from "../../src/contract/zod";

type ContextReading = z.infer<typeof DaemonContextReading>;

export type UsageReading = {
  sequence: number;
  turn_id: string | null;
  created_at: string;
  context_used: number;
  context_size: number | null;
};

/** The newest `terminal: true` compaction row. */
export type ContextBoundary = { compaction_id: string; sequence: number };

export function deriveContext(
  reading: UsageReading | undefined,
  boundary: ContextBoundary | undefined,
  configuredWindow: number | undefined,
): ContextReading {
  if (reading === undefined || (boundary !== undefined && reading.sequence < boundary.sequence)) {
    return boundary === undefined
      ? { state: "unknown" }
      : {
          state: "unknown",
          cleared_by: { compaction_id: boundary.compaction_id, sequence: boundary.sequence },
        };
  }
  const context: ContextReading = {
    state: "reported",
    used: reading.context_used,
    sequence: reading.sequence,
    reported_at: reading.created_at,
  };
  if (reading.turn_id !== null) context.reported_turn_id = reading.turn_id;
  const size = reading.context_size ?? 0;
  if (size > 0) {
    context.size = size;
    context.ratio = reading.context_used / size;
    context.size_source = "agent";
  } else if (configuredWindow !== undefined && configuredWindow > 0) {
    context.state = "estimated_size";
    context.size = configuredWindow;
    context.ratio = reading.context_used / configuredWindow;
    context.size_source = "catalog";
  }
  return context;
}
