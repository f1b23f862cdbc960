// The usage markers, brought level with the transcript. The transcript moves frame by frame
// while `…/usage/turns` is re-read a second later, so for that second the row said
// "Context compacted" while the turns list said "in progress". Per compaction id the
// newer word wins: the transcript's, unless the marker already has a terminal status the
// transcript has not caught up with (a terminal status is final).
import type { CompactionMarkerView, UsageTurnsView } from "../../api/usage-queries";
import type { TranscriptCompactions } from "../../lib/compaction-words";
import { isTerminalStatus } from "./context-meter-view";

export function withTranscriptStates(
  data: UsageTurnsView,
  states: TranscriptCompactions | undefined,
): UsageTurnsView {
  if (!states) return data;
  let changed = false;
  const compactions = data.compactions.map((marker) => {
    const next = levelled(marker, states[marker.compaction_id]?.state);
    if (next !== marker) changed = true;
    return next;
  });
  return changed ? { ...data, compactions } : data;
}

function levelled(marker: CompactionMarkerView, state: string | undefined): CompactionMarkerView {
  if (state === undefined) return marker;
  if (state === "interrupted") {
    return marker.status === "cancelled" && marker.interrupted
      ? marker
      : { ...marker, status: "cancelled", interrupted: true };
  }
  if (state === marker.status || isTerminalStatus(marker.status)) return marker;
  return { ...marker, status: state };
}
