// Composer drafts, one per session, kept in localStorage so a reload or a dropped stream
// never loses what was typed. Cleared only when the daemon accepted the prompt.
import { useCallback } from "react";
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";

type DraftState = {
  drafts: Record<string, string>;
  actions: {
    draftEdited: (sessionId: string, text: string) => void;
    /** Clears the draft; with `text`, only if it is still that text (typed on meanwhile: kept). */
    draftSent: (sessionId: string, text?: string) => void;
  };
};

export const DRAFTS_STORAGE_KEY = "tideline.drafts";

const useDraftStore = create<DraftState>()(
  persist(
    (set) => ({
      drafts: {},
      actions: {
        draftEdited: (sessionId, text) =>
          set((state) => ({ drafts: { ...state.drafts, [sessionId]: text } })),
        draftSent: (sessionId, text) =>
          set((state) => {
            if (text !== undefined && state.drafts[sessionId] !== text) return state;
            const { [sessionId]: _sent, ...drafts } = state.drafts;
            return { drafts };
          }),
      },
    }),
    {
      name: DRAFTS_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ drafts: state.drafts }),
    },
  ),
);

export const useDraft = (sessionId: string) =>
  useDraftStore((state) => state.drafts[sessionId] ?? "");
export const useDraftActions = () => useDraftStore((state) => state.actions);
/** Reads a draft at the moment of an action, without subscribing to every keystroke. */
export const useDraftOf = () =>
  useCallback((sessionId: string) => useDraftStore.getState().drafts[sessionId] ?? "", []);
/** For tests: read the persisted drafts again, as a reload would. */
export const rehydrateDrafts = () => useDraftStore.persist.rehydrate();
