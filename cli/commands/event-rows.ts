// One ledger event as a table row: the content without its envelope fields, as one line.
import { cell } from "../output";
import type { SessionEvent } from "../wire";

type Content = Record<string, unknown>;
const ENVELOPE = new Set(["schema", "type", "timestamp"]);

export function eventTimestamp(event: SessionEvent): string | undefined {
  if (event.timestamp !== undefined) return event.timestamp;
  const content = event.content as Content | null;
  return typeof content?.timestamp === "string" ? content.timestamp : undefined;
}

export function eventBody(event: SessionEvent): unknown {
  const content = event.content;
  if (typeof content !== "object" || content === null || Array.isArray(content)) return content;
  return Object.fromEntries(Object.entries(content).filter(([key]) => !ENVELOPE.has(key)));
}

export const EVENT_HEADERS = ["SEQ", "TURN", "TYPE", "AGENT", "TIME", "CONTENT"] as const;

export function eventRow(event: SessionEvent, turnId?: string | null): string[] {
  return [
    String(event.sequence),
    cell(event.turn_id || turnId, 28),
    cell(event.type, 32),
    cell(event.agent_name, 16),
    cell(eventTimestamp(event), 24),
    cell(eventBody(event), 100),
  ];
}
