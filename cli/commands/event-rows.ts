// One ledger event as a table row: the content without its envelope fields, as one line.
import type { SessionEvent } from "../../src/contract/history";
import { isJsonObject } from "../../src/contract/json-value";
import { cell } from "../output";

const ENVELOPE = new Set(["schema", "type", "timestamp"]);

function eventBody(event: SessionEvent): unknown {
  const content = event.content;
  if (!isJsonObject(content)) return content;
  return Object.fromEntries(Object.entries(content).filter(([key]) => !ENVELOPE.has(key)));
}

export const EVENT_HEADERS = ["SEQ", "TURN", "TYPE", "AGENT", "TIME", "CONTENT"] as const;

export function eventRow(event: SessionEvent, turnId?: string): string[] {
  return [
    String(event.sequence),
    cell(event.turn_id || turnId, 28),
    cell(event.type, 32),
    cell(event.agent_name, 16),
    cell(event.timestamp, 24),
    cell(eventBody(event), 100),
  ];
}
