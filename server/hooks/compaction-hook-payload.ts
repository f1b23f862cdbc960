// The JSON a compaction hook reads on stdin: the event row plus the session's fields
// (name, agent, workspace) read from the store, and the compaction's trigger, which
// post learns from its pre (or, across a restart, from the usage markers).
import type { SessionReader, SessionStore } from "../domain/session-recorder-api";
import type { CompactionHookEventRow, CompactionTriggerValue } from "./compaction-hook-events";
import type { CompactionHookEvent } from "./hook-config";

export type CompactionHookPayload = {
  event: CompactionHookEvent;
  timestamp: string;
  session_id: string;
  session_name?: string;
  agent_name?: string;
  workspace_id?: string;
  workspace?: string;
  /** `""` for a compaction between turns, as CompozyOS writes an empty turn id. */
  turn_id: string;
  compaction_id: string;
  trigger: CompactionTriggerValue;
  status?: string;
  summary?: string;
  error?: string;
};

export function createPayloadBuilder(deps: {
  store: SessionStore;
  reader: SessionReader;
  now: () => Date;
}) {
  const { store, reader, now } = deps;
  const triggers = new Map<string, CompactionTriggerValue>();

  function triggerOf(event: CompactionHookEventRow): CompactionTriggerValue {
    const key = `${event.sessionId}\u0000${event.compactionId}`;
    if (event.trigger !== undefined) {
      triggers.set(key, event.trigger);
      return event.trigger;
    }
    const known = triggers.get(key);
    if (known !== undefined) return known;
    // Pre fired before a restart: the usage markers keep each compaction's trigger.
    const marker = reader
      .usageTurns(event.sessionId)
      .compactions.find((m) => m.compaction_id === event.compactionId);
    return marker?.trigger === "requested" ? "requested" : "agent";
  }

  /** The payload of `event`; a pre's trigger is remembered for its post. */
  return function payloadFor(event: CompactionHookEventRow): CompactionHookPayload {
    const session = store.getSession(event.sessionId);
    const workspace = session ? store.getWorkspace(session.workspace_id) : undefined;
    return {
      event: event.event,
      timestamp: now().toISOString(),
      session_id: event.sessionId,
      ...(session?.name === undefined ? {} : { session_name: session.name }),
      ...(session === undefined ? {} : { agent_name: session.agent_name }),
      ...(session === undefined ? {} : { workspace_id: session.workspace_id }),
      ...(workspace === undefined ? {} : { workspace: workspace.root_dir }),
      turn_id: event.turnId ?? "",
      compaction_id: event.compactionId,
      trigger: triggerOf(event),
      ...(event.status === undefined ? {} : { status: event.status }),
      ...(event.summary === undefined ? {} : { summary: event.summary }),
      ...(event.error === undefined ? {} : { error: event.error }),
    };
  };
}
