// Building blocks shared by every wire shape: ids, sequences, int64 counters, timestamps
// and the query-string integers the daemon accepts.
import { z } from "./zod";

/** A non-empty identifier (session, workspace, compaction…). */
export const Id = z.string().check(z.minLength(1));

/**
 * A turn id as CompozyOS sends it on events and history groups: `""` when the row
 * belongs to no turn (a session-level event), never absent.
 */
export const TurnId = z.string();

/** A ledger sequence number: per-session, strictly increasing, never negative (int64). */
export const Sequence = z.int().check(z.nonnegative());

/**
 * An int64 the daemon counts up: transcript `epoch` and projection `generation`. They are
 * JSON numbers (Go `int64`), never strings.
 */
export const Int64 = z.int().check(z.nonnegative());

/** A token count or other non-negative integer counter. */
export const Count = z.int().check(z.nonnegative());

/** RFC 3339 timestamp as Go writes it: `2026-10-08T14:02:11Z`, `…11.123456789+02:00`. */
export const Timestamp = z.iso.datetime({ offset: true });

/**
 * An integer carried in a query string. Only plain digits are accepted, so `-1`, `1.5`,
 * `1e3` and the empty string are refused instead of being coerced into something else.
 */
export function queryInt(min: number, max: number) {
  return z.pipe(
    z.pipe(
      z.string().check(z.regex(/^\d{1,18}$/, "must be a non-negative integer")),
      z.transform(Number),
    ),
    z.int().check(z.gte(min)).check(z.lte(max)),
  );
}

/**
 * A Go slice that may be marshalled as `null` (a nil slice) or omitted: read as `[]`, so a
 * client never breaks on `parts: null`.
 */
export function goSlice<T extends z.ZodMiniType>(item: T) {
  return z.pipe(
    z.nullish(z.array(item)),
    z.transform((value): z.output<T>[] => value ?? []),
  );
}

/** A boolean query parameter as Go's `strconv.ParseBool` reads it; empty is false. */
export const goBool = z.pipe(
  z
    .string()
    .check(z.trim())
    .check(
      z.refine((raw) => /^(|1|0|t|f|true|false|TRUE|FALSE|True|False|T|F)$/.test(raw), {
        message: "must be a boolean",
      }),
    ),
  z.transform((raw) => /^(1|t|T|true|TRUE|True)$/.test(raw)),
);
