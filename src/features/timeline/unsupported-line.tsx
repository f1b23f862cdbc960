import { useEffect } from "react";
import type { UnsupportedPart } from "../../contract/transcript";

const warned = new Set<string>();

/** A part this client cannot draw: one muted line, and one console warning per part. */
export function UnsupportedLine({ itemKey, part }: { itemKey: string; part: UnsupportedPart }) {
  useEffect(() => {
    if (warned.has(itemKey)) return;
    warned.add(itemKey);
    console.warn(
      `Tideline: unsupported transcript part (${part.original_type}): ${part.reason}`,
      part.raw,
    );
  }, [itemKey, part]);
  return (
    <p className="text-xs text-slate-600 italic dark:text-slate-400">
      Unsupported item ({part.original_type})
    </p>
  );
}
