// Building blocks shared by every wire shape: ids, sequences, timestamps and the
// query-string integers the daemon accepts.
import { z } from "zod";

/** A non-empty identifier (session, workspace, turn, compaction…). */
export const Id = z.string().min(1);

/** A ledger sequence number: per-session, strictly increasing, never negative. */
export const Sequence = z.number().int().nonnegative();

/** A token count or other non-negative integer counter. */
export const Count = z.number().int().nonnegative();

/** RFC 3339 UTC timestamp, e.g. `2026-11-30T08:42:23.123Z`. */
export const Timestamp = z.iso.datetime({ offset: true });

/**
 * An integer carried in a query string. Only plain digits are accepted, so `-1`, `1.5`,
 * `1e3` and the empty string are refused instead of being coerced into something else.
 */
export function queryInt(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,15}$/, "must be a non-negative integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}
