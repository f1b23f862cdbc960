// A session detail as the daemon answers it, for the tests that hold one in the query cache.
import type { SessionEnvelope } from "../contract/session";

export const AT = "2026-01-01T00:00:00Z";

/** Session s1 of workspace w1, run by the demo agent, in `state`. */
export function sessionEnvelope(state: SessionEnvelope["session"]["state"]): SessionEnvelope {
  return {
    session: {
      id: "s1",
      workspace_id: "w1",
      agent_name: "demo",
      state,
      available_commands: [],
      created_at: AT,
      updated_at: AT,
    },
  };
}
