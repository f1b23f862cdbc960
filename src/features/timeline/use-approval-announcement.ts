import { useEffect, useRef, useState } from "react";
import type { Entry } from "../../contract/transcript";
import { collectApprovalAnnouncements } from "./approval-announcements";
import type { Announcement } from "./use-compaction-announcement";

/** The latest approval news ("Approval needed: …", "Rejected: …") for the timeline's live region. */
export function useApprovalAnnouncement(entries: readonly Entry[] | undefined): Announcement {
  const seen = useRef(new Map<string, boolean>());
  const [announcement, setAnnouncement] = useState<Announcement>({ text: "", id: 0 });
  useEffect(() => {
    if (!entries) return;
    const messages = collectApprovalAnnouncements(seen.current, entries);
    if (messages.length === 0) return;
    setAnnouncement((previous) => ({ text: messages.join(". "), id: previous.id + 1 }));
  }, [entries]);
  return announcement;
}
