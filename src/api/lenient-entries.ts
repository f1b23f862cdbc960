// Entry-level leniency: one malformed entry must not hide the rest of a page or delta.
// An entry that fails the contract but still says where it sits becomes a placeholder
// with one unsupported part (rendered as a muted row); one without sequences is dropped.

import { Sequence } from "../contract/primitives";
import { Entry } from "../contract/transcript";
import { z } from "../contract/zod";

const Position = z.object({ start_sequence: Sequence, sequence: Sequence });

function parseEntry(raw: unknown): Entry | undefined {
  const parsed = Entry.safeParse(raw);
  if (parsed.success) return parsed.data;
  const reason = parsed.error.issues[0]?.message ?? "malformed entry";
  console.warn("Tideline: malformed transcript entry", reason, raw);
  const position = Position.safeParse(raw);
  if (!position.success) return undefined;
  return {
    start_sequence: position.data.start_sequence,
    sequence: position.data.sequence,
    message: {
      id: `malformed-${position.data.start_sequence}`,
      role: "system",
      parts: [{ type: "unsupported", original_type: "entry", reason, raw }],
    },
  };
}

export const LenientEntries = z.pipe(
  z.array(z.unknown()),
  z.transform((raws) => raws.flatMap((raw) => parseEntry(raw) ?? [])),
);
