// Which compactions just reached a terminal status, so the timeline's single polite live
// region can say so once. A row first seen already finished (a reload, an older page) is
// not news and is not announced.
import { compactionOf, type Entry, isTerminalCompactionStatus } from "../../contract/transcript";
import { terminalAnnouncement } from "./compaction-view";

export function collectAnnouncements(
  seen: Map<string, string>,
  entries: readonly Entry[],
): string[] {
  const messages: string[] = [];
  for (const entry of entries) {
    const item = compactionOf(entry);
    if (!item) continue;
    const previous = seen.get(item.compaction_id);
    seen.set(item.compaction_id, item.status);
    if (previous === undefined || previous === item.status) continue;
    if (isTerminalCompactionStatus(previous)) continue;
    const message = terminalAnnouncement(item);
    if (message) messages.push(message);
  }
  return messages;
}
