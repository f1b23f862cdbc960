import { useEffect, useRef, useState } from "react";
import type { Entry } from "../../contract/transcript";
import { collectAnnouncements } from "./compaction-announcements";

export type Announcement = { text: string; id: number };

/** The latest "a compaction just finished" message, for the timeline's one live region. */
export function useCompactionAnnouncement(entries: readonly Entry[] | undefined): Announcement {
  const seen = useRef(new Map<string, string>());
  const [announcement, setAnnouncement] = useState<Announcement>({ text: "", id: 0 });
  useEffect(() => {
    if (!entries) return;
    const messages = collectAnnouncements(seen.current, entries);
    if (messages.length === 0) return;
    setAnnouncement((previous) => ({ text: messages.join(". "), id: previous.id + 1 }));
  }, [entries]);
  return announcement;
}
