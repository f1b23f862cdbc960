// One muted line for a `data-compozy-event` or `data-compozy-permission` part: plan,
import { asJsonObject, shownText } from "../../contract/json-value";

// permission, agent exit, session state, CompozyOS's runtime notices, markers and errors,
// and updates the daemon did not model. Fields are read defensively: the data is loose by
// contract. CompozyOS also records an event part beside every tool call and usage report;
// the tool row and the meter already show those, so they draw no line (`undefined`).
type EventData = { type: string } & Record<string, unknown>;

function describePlan(data: EventData): string {
  // Tideline's daemon sends the plan's entries; CompozyOS keeps the ACP update under `raw`.
  const raw = asJsonObject(data.raw);
  const entries = Array.isArray(data.entries)
    ? data.entries
    : Array.isArray(raw?.entries)
      ? raw.entries
      : [];
  const done = entries.filter((entry) => asJsonObject(entry)?.status === "completed").length;
  const steps = `${entries.length} ${entries.length === 1 ? "step" : "steps"}`;
  return entries.length > 0 ? `Plan updated · ${done} of ${steps} done` : "Plan updated";
}

const DECISIONS: Record<string, string> = {
  "allow-once": "allowed once",
  "allow-always": "allowed for this session",
  "reject-once": "rejected",
  "reject-always": "rejected for this session",
};

function describePermission(data: EventData): string {
  const toolCall = asJsonObject(data.toolCall) ?? asJsonObject(data.tool_call);
  const title =
    shownText(data.title) ??
    shownText(toolCall?.title) ??
    shownText(data.action) ??
    shownText(data.resource);
  const outcome = asJsonObject(data.outcome);
  const decision =
    shownText(data.outcome) ??
    shownText(outcome?.outcome) ??
    shownText(data.decision) ??
    shownText(outcome?.optionId);
  const said = decision ? (DECISIONS[decision] ?? decision) : undefined;
  return ["Permission requested", title ? `: ${title}` : "", said ? ` · ${said}` : ""].join("");
}

/** Event types whose content another row already shows. */
const SHOWN_ELSEWHERE = new Set([
  "tool_call",
  "tool_result",
  "usage",
  "agent_message",
  "thought",
  "user_message",
]);

function describeMarker(data: EventData): string {
  const marker = asJsonObject(data.marker);
  const summary = shownText(marker?.summary) ?? shownText(data.text) ?? shownText(data.title);
  return summary ? `Note: ${summary}` : "Note added to the transcript";
}

function describeCompactionFired(data: EventData): string {
  // CompozyOS puts the admission under `raw` (strategy, pressure, sequence span).
  const raw = asJsonObject(data.raw);
  const strategy = shownText(raw?.strategy);
  return `Compaction started${strategy ? ` (${strategy})` : ""}`;
}

function describeExit(data: EventData): string {
  const signal = shownText(data.signal);
  if (signal) return `Agent exited on signal ${signal}`;
  return typeof data.code === "number" ? `Agent exited with code ${data.code}` : "Agent exited";
}

function describeState(data: EventData): string {
  const state = shownText(data.state) ?? "changed";
  const reason = shownText(data.reason);
  return `Session ${state}${reason ? ` — ${reason}` : ""}`;
}

export function describeEvent(data: EventData): string | undefined {
  if (SHOWN_ELSEWHERE.has(data.type)) return undefined;
  switch (data.type) {
    case "plan":
      return describePlan(data);
    case "permission":
      return describePermission(data);
    case "agent.exited":
      return describeExit(data);
    case "session.state":
      return describeState(data);
    case "agent.invalid_frame":
      return `Ignored an invalid agent update${shownText(data.error) ? `: ${shownText(data.error)}` : ""}`;
    case "agent.unknown_update": {
      const kind = shownText(data.sessionUpdate);
      return `Unrecognised agent update${kind ? ` (${kind})` : ""}`;
    }
    case "runtime_progress":
      return shownText(data.text) ?? "Still working…";
    case "runtime_warning":
      return `Warning: ${shownText(data.text) ?? "the agent is slow to respond"}`;
    case "error":
      return `Error: ${shownText(data.error) ?? shownText(asJsonObject(data.failure)?.summary) ?? "the turn failed"}`;
    case "done":
      return `Turn ended${shownText(data.stop_reason) ? ` (${shownText(data.stop_reason)})` : ""}`;
    case "session_stopped":
      return `Session stopped${shownText(data.stop_reason) ? ` — ${shownText(data.stop_reason)}` : ""}`;
    case "system":
      return shownText(data.title) ?? shownText(data.text) ?? "System update";
    case "transcript_marker.created":
    case "transcript_marker.redacted":
      return describeMarker(data);
    case "session.compaction_fired":
      return describeCompactionFired(data);
    default:
      return shownText(data.title) ?? shownText(data.text) ?? `Agent event: ${data.type}`;
  }
}
