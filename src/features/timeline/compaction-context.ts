// What a compaction row needs from beyond its own item, provided once by the timeline
// instead of threaded through every entry and part: whether the daemon is reachable (a
// row's timer stops while it is not), why an interrupted compaction ended (the agent's
// exit, recorded as a later event), and who asked for it (a typed command, a caller).
import { createContext, useContext } from "react";
import type { CompactionRequest } from "../../lib/compaction-origin";

export type CompactionSurroundings = {
  offline: boolean;
  exitFor: (compactionId: string) => string | undefined;
  requestFor: (compactionId: string) => CompactionRequest | undefined;
};

const none = () => undefined;

export const CompactionContext = createContext<CompactionSurroundings>({
  offline: false,
  exitFor: none,
  requestFor: none,
});

export const useCompactionSurroundings = () => useContext(CompactionContext);
