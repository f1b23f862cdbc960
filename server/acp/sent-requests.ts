// The requests the daemon's SDK wrote to the agent, by JSON-RPC id: the tap reads an
// answer's method here, since a response line names only the id it answers.
import { isObject, requestIdKey } from "./agent-frames";

export type SentRequests = ReturnType<typeof createSentRequests>;

export function createSentRequests() {
  const sentMethods = new Map<string, string>();
  return {
    /** One line the SDK wrote to the agent: a request's id names its answer's method. */
    noteOutgoing(line: string): void {
      try {
        const message: unknown = JSON.parse(line);
        if (isObject(message) && typeof message.method === "string") {
          const key = requestIdKey(message.id);
          if (key !== undefined) sentMethods.set(key, message.method);
        }
      } catch {
        // Our own SDK wrote it; a parse failure here can only be a partial line.
      }
    },

    /** The method of the request `key` answers, forgotten once read; undefined if none. */
    take(key: string): string | undefined {
      const method = sentMethods.get(key);
      if (method !== undefined) sentMethods.delete(key);
      return method;
    },

    /** Whether a request of `method` is still unanswered. */
    pending(method: string): boolean {
      for (const sent of sentMethods.values()) if (sent === method) return true;
      return false;
    },
  };
}
