import { memo } from "react";
import type { CompactionMarkerView } from "../../api/usage-queries";
import { CopyButton } from "../../components/copy-button";
import { type Entry, speakerOf } from "../../contract/transcript";
import { maintenanceSender, metadataFlag } from "../../lib/compaction-origin";
import { PartView } from "./part-view";
import { PinToggle } from "./pin-toggle";
import { SPEAKER_LABEL, USER_BUBBLE } from "./row-looks";
import { messageText, SPEAKER_NAMES } from "./timeline-view";

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
  const label = showSpeaker ? SPEAKER_NAMES[speakerOf(message)] : undefined;
  // Compact now's own prompt says so, and who sent it; a command the person typed is theirs.
  const sender = message.role === "user" ? maintenanceSender(message.metadata) : undefined;
  // The person's own words can be pinned; a maintenance prompt (Compact now's) is not theirs.
  const pinnable = message.role === "user" && !metadataFlag(message.metadata, "maintenance");
  const text = message.role === "system" ? "" : messageText(message);
  const bubble = message.role === "user" ? USER_BUBBLE : "";
  return (
    <div className={`space-y-1.5 ${bubble}`}>
      {label || pinnable || text ? (
        <div className="flex items-center gap-2">
          {label ? <p className={SPEAKER_LABEL}>{sender ?? label}</p> : null}
          <span className="ml-auto inline-flex items-center gap-1.5">
            {text ? <CopyButton text={text} what="message" /> : null}
            {pinnable ? <PinToggle entryId={message.id} /> : null}
          </span>
        </div>
      ) : null}
      {message.parts.map((part, index) => (
        <PartView
          // Parts never reorder within an entry; the index is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          key={index}
          part={part}
          itemKey={`${entry.start_sequence}:${index}`}
          markerFor={markerFor}
          foldLong={message.role === "assistant"}
        />
      ))}
    </div>
  );
});
