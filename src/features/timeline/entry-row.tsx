import { memo } from "react";
import type { CompactionMarkerView } from "../../api/usage-queries";
import { type Entry, speakerOf } from "../../contract/transcript";
import { maintenanceSender } from "../../lib/compaction-origin";
import { PartView } from "./part-view";

const ROLE_LABELS = { user: "You", assistant: "Agent", system: undefined } as const;

/** One transcript entry: who spoke, then its parts in order. */
export const EntryRow = memo(function EntryRow({
  entry,
  showSpeaker = true,
  markerFor,
}: {
  entry: Entry;
  showSpeaker?: boolean;
  markerFor: (compactionId: string) => CompactionMarkerView | undefined;
}) {
  const { message } = entry;
  const label = showSpeaker ? ROLE_LABELS[speakerOf(message)] : undefined;
  // Compact now's own prompt says so, and who sent it; a command the person typed is theirs.
  const sender = message.role === "user" ? maintenanceSender(message.metadata) : undefined;
  const bubble =
    message.role === "user" ? "rounded-lg bg-slate-100 px-3 py-2 dark:bg-slate-800/70" : "";
  return (
    <div className={`space-y-1.5 ${bubble}`}>
      {label ? (
        <p className="text-xs font-semibold text-slate-600 dark:text-slate-300">
          {sender ?? label}
        </p>
      ) : null}
      {message.parts.map((part, index) => (
        <PartView
          // Parts never reorder within an entry; the index is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          key={index}
          part={part}
          itemKey={`${entry.start_sequence}:${index}`}
          markerFor={markerFor}
        />
      ))}
    </div>
  );
});
