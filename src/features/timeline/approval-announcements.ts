// What the timeline's one polite live region says about approvals: a request that appears
// waiting ("Approval needed: …", even on first load: it waits for the person), and one that
// was answered while the page watched ("Allowed once: …"). A request first seen answered is
// history, not news.

import { isJsonObject } from "../../contract/json-value";
import { permissionAnnouncement, permissionView } from "./permission-view";

type PartLike = { type: string; id?: string | undefined; data?: unknown };
type EntryLike = { message: { parts: ReadonlyArray<PartLike> } };

export function collectApprovalAnnouncements(
  seen: Map<string, boolean>,
  entries: readonly EntryLike[],
): string[] {
  const messages: string[] = [];
  for (const entry of entries) {
    for (const part of entry.message.parts) {
      if (part.type !== "data-compozy-permission") continue;
      if (!isJsonObject(part.data)) continue;
      const view = permissionView(part.data);
      const key = part.id ?? view.requestId;
      if (key === undefined) continue;
      const wasPending = seen.get(key);
      seen.set(key, view.pending);
      if (wasPending === view.pending) continue;
      if (wasPending === undefined && !view.pending) continue;
      messages.push(permissionAnnouncement(view));
    }
  }
  return messages;
}
