// The find bar's behaviour (ADR 0231): the daemon searches the whole session (or, without
// the endpoint, the loaded entries are searched and the bar says so); moving to a match
// asks the list to jump there, loading older pages until it is loaded, without taking the
// focus from the field.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { searchQueries } from "../../api/search-queries";
import type { SessionRef } from "../../api/session-queries";
import type { Entry } from "../../contract/transcript";
import { useFindActions, useFindCurrentId, useFindOpen, useFindText } from "./find-store";
import { countLabel, type FindMatch, findQuery, loadedMatches, stepMatch } from "./find-view";
import { useTimelineActions } from "./timeline-store";

const TYPING_PAUSE_MS = 150;

function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

export type FindBarState = {
  open: boolean;
  text: string;
  /** "3 of 17", "No matches", or "" while nothing is asked. */
  label: string;
  searching: boolean;
  /** The daemon cannot search: only the loaded entries were. */
  loadedOnly: boolean;
  error: Error | null;
  step: (direction: 1 | -1) => void;
};

export function useFindBar(session: SessionRef, entries: readonly Entry[]): FindBarState {
  const open = useFindOpen();
  const text = useFindText();
  const currentId = useFindCurrentId();
  const { matchShown } = useFindActions();
  const { jumpRequested } = useTimelineActions();
  const q = findQuery(useSettled(text));
  const search = useQuery({
    ...searchQueries.session(session, q ?? ""),
    enabled: open && q !== undefined,
  });
  const loadedOnly = search.data === null;
  const matches = useMemo<readonly FindMatch[]>(() => {
    if (q === undefined) return [];
    if (search.data === null) return loadedMatches(entries, q);
    return search.data?.matches ?? [];
  }, [q, search.data, entries]);
  const current = matches.findIndex((match) => match.entry_id === currentId);

  function show(index: number): void {
    const match = matches[index];
    if (match === undefined) return;
    // Jumped to again even when it is already current: the reader may have scrolled away.
    linkPending.current = false;
    matchShown(match.entry_id);
    jumpRequested(match.entry_id, { focus: false });
  }

  // New results without a current match: the newest one, nearest the reader. A current
  // match set before the results came (a search hit's link) is jumped to once they hold it.
  const newest = matches.at(-1)?.entry_id;
  const linkPending = useRef(true);
  const found = current >= 0;
  useEffect(() => {
    if (!open) return;
    if (currentId === undefined) {
      if (newest === undefined) return;
      linkPending.current = false;
      matchShown(newest);
      jumpRequested(newest, { focus: false });
    } else if (found && linkPending.current) {
      linkPending.current = false;
      jumpRequested(currentId, { focus: false });
    }
  }, [open, currentId, found, newest, matchShown, jumpRequested]);

  const answered = q !== undefined && (search.data !== undefined || loadedOnly);
  const total = search.data?.total ?? matches.length;
  return {
    open,
    text,
    label: answered ? countLabel(current, total) : "",
    searching: q !== undefined && search.isFetching,
    loadedOnly,
    error: search.error,
    step: (direction) => show(stepMatch(current, matches.length, direction)),
  };
}
