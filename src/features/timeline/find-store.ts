// The find bar's client state (ADR 0231): whether it is open, what is typed, and which
// match is current (by entry id, so it survives new matches arriving). Never server data.
import { create } from "zustand";

type FindState = {
  open: boolean;
  text: string;
  currentId: string | undefined;
  actions: {
    /** A session was opened, maybe from a search hit that names a query and an entry. */
    findReset: (start?: { text: string; entryId: string }) => void;
    findOpened: () => void;
    findClosed: () => void;
    textTyped: (text: string) => void;
    matchShown: (entryId: string | undefined) => void;
  };
};

const useFindStore = create<FindState>()((set) => ({
  open: false,
  text: "",
  currentId: undefined,
  actions: {
    findReset: (start) =>
      set(
        start === undefined
          ? { open: false, text: "", currentId: undefined }
          : { open: true, text: start.text, currentId: start.entryId },
      ),
    findOpened: () => set({ open: true }),
    findClosed: () => set({ open: false, currentId: undefined }),
    textTyped: (text) => set({ text, currentId: undefined }),
    matchShown: (entryId) => set({ currentId: entryId }),
  },
}));

export const useFindOpen = () => useFindStore((state) => state.open);
export const useFindText = () => useFindStore((state) => state.text);
export const useFindCurrentId = () => useFindStore((state) => state.currentId);
export const useFindActions = () => useFindStore((state) => state.actions);
