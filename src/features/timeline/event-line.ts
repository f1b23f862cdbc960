// One muted line for a `data-compozy-event` part: plan, permission, agent exit, session
// state, and updates the daemon did not model. Fields are read defensively: the data is
// loose by contract.
type EventData = { type: string } & Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function describePlan(data: EventData): string {
  const entries = Array.isArray(data.entries) ? data.entries : [];
  const done = entries.filter((entry) => record(entry)?.status === "completed").length;
  const steps = `${entries.length} ${entries.length === 1 ? "step" : "steps"}`;
  return entries.length > 0 ? `Plan updated · ${done} of ${steps} done` : "Plan updated";
}

function describePermission(data: EventData): string {
  const toolCall = record(data.toolCall) ?? record(data.tool_call);
  const title = text(data.title) ?? text(toolCall?.title);
  const outcome = record(data.outcome);
  const decision =
    text(data.outcome) ?? text(outcome?.outcome) ?? text(data.decision) ?? text(outcome?.optionId);
  return ["Permission requested", title ? `: ${title}` : "", decision ? ` · ${decision}` : ""].join(
    "",
  );
}

function describeExit(data: EventData): string {
  const signal = text(data.signal);
  if (signal) return `Agent exited on signal ${signal}`;
  return typeof data.code === "number" ? `Agent exited with code ${data.code}` : "Agent exited";
}

function describeState(data: EventData): string {
  const state = text(data.state) ?? "changed";
  const reason = text(data.reason);
  return `Session ${state}${reason ? ` — ${reason}` : ""}`;
}

export function describeEvent(data: EventData): string {
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
      return `Ignored an invalid agent update${text(data.error) ? `: ${text(data.error)}` : ""}`;
    case "agent.unknown_update": {
      const kind = text(data.sessionUpdate);
      return `Unrecognised agent update${kind ? ` (${kind})` : ""}`;
    }
    default:
      return `Agent event: ${data.type}`;
  }
}
