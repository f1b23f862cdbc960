// Client-only timeline state: which rows are expanded (kept here so a row scrolled out of
// the virtual window opens the same way when it comes back) and whether the view follows
// the tail. Never server data.
import { create } from "zustand";

type TimelineState = {
  open: Record<string, true>;
  following: boolean;
  /** A row asked the list to show this entry (a message id): older pages load until it is there. */
  jumpTarget: string | undefined;
  /** Whether the jump gives the row focus (the find bar keeps it in its field instead). */
  jumpFocus: boolean;
  /**
   * An element (by id) a row asked to bring into view once the list has laid the row out
   * again: scrolling before that aims at stale positions, and the tail logic misreads it.
   */
  revealTarget: string | undefined;
  actions: {
    /** A session was opened: nothing expanded yet, following its tail. */
    sessionOpened: () => void;
    openItem: (key: string) => void;
    closeItem: (key: string) => void;
    stopFollowing: () => void;
    resumeFollowing: () => void;
    jumpRequested: (entryId: string, options?: { focus: boolean }) => void;
    /** The jump to `entryId` is done; a newer jump requested meanwhile stays. */
    jumpSettled: (entryId: string) => void;
    revealRequested: (elementId: string) => void;
    /** The reveal of `elementId` is done; a newer one requested meanwhile stays. */
    revealSettled: (elementId: string) => void;
  };
};

const useTimelineStore = create<TimelineState>()((set) => ({
  open: {},
  following: true,
  jumpTarget: undefined,
  jumpFocus: true,
  revealTarget: undefined,
  actions: {
    sessionOpened: () =>
      set({ open: {}, following: true, jumpTarget: undefined, revealTarget: undefined }),
    openItem: (key) => set((state) => ({ open: { ...state.open, [key]: true } })),
    closeItem: (key) =>
      set((state) => {
        const { [key]: _closed, ...open } = state.open;
        return { open };
      }),
    stopFollowing: () => set({ following: false }),
    resumeFollowing: () => set({ following: true }),
    // Reading an older entry is leaving the tail.
    jumpRequested: (entryId, options) =>
      set({ jumpTarget: entryId, jumpFocus: options?.focus ?? true, following: false }),
    // A settled jump clears only itself. Effects can run after the next event's handler
    // (Preact runs a component's pending effects when it renders again), so the jump of the
    // previous Enter may settle after the next Enter asked for another one.
    jumpSettled: (entryId) =>
      set((state) => (state.jumpTarget === entryId ? { jumpTarget: undefined } : {})),
    // The reader acted on that row: pinning to the tail meanwhile would unmount it.
    revealRequested: (elementId) => set({ revealTarget: elementId, following: false }),
    revealSettled: (elementId) =>
      set((state) => (state.revealTarget === elementId ? { revealTarget: undefined } : {})),
  },
}));

export const useItemOpen = (key: string) => useTimelineStore((state) => state.open[key] === true);
export const useJumpTarget = () => useTimelineStore((state) => state.jumpTarget);
export const useJumpFocus = () => useTimelineStore((state) => state.jumpFocus);
export const useRevealTarget = () => useTimelineStore((state) => state.revealTarget);
export const useFollowing = () => useTimelineStore((state) => state.following);
/** Whether the view follows the tail now, outside React's render (an observer's callback). */
export const isFollowing = () => useTimelineStore.getState().following;
export const useTimelineActions = () => useTimelineStore((state) => state.actions);
