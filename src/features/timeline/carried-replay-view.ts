// What a continued or forked session's first row says (ADR 0136): the daemon records the
// bounded replay it will send with the first prompt (`session.replay_carried`), so the new
// session shows where it comes from and exactly what its agent is given of it.
import { isJsonObject } from "../../contract/json-value";

type Data = Record<string, unknown>;

type CarriedMessage = { role: string; content: string };

export type CarriedReplayView = {
  heading: string;
  summary: string;
  messages: CarriedMessage[];
};

const number = new Intl.NumberFormat("en");

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${number.format(bytes)} bytes`;
  return `${new Intl.NumberFormat("en", { maximumFractionDigits: 1 }).format(bytes / 1024)} KB`;
}

function messagesOf(value: unknown): CarriedMessage[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (!isJsonObject(item)) return [];
    const { role, content } = item;
    return typeof role === "string" && typeof content === "string" ? [{ role, content }] : [];
  });
}

export const ROLE_LABELS: Record<string, string> = {
  user: "You",
  assistant: "Agent",
  system: "Note",
};

export function carriedReplayView(data: Data): CarriedReplayView {
  const name = typeof data.source_name === "string" && data.source_name ? data.source_name : "";
  const source = name ? `“${name}”` : "an earlier session";
  const heading = data.kind === "fork" ? `Forked from ${source}` : `Continued from ${source}`;
  const carried = count(data.message_count);
  const omitted = count(data.omitted_count);
  const messages = messagesOf(data.messages);
  const summary =
    carried === 0 && omitted === 0
      ? "That conversation had no messages: the agent starts fresh."
      : [
          `This session's first prompt gives the agent ${number.format(carried)} ${carried === 1 ? "message" : "messages"} of that conversation (${size(count(data.replay_bytes))}).`,
          omitted > 0
            ? `${number.format(omitted)} earlier ${omitted === 1 ? "message is" : "messages are"} left out to fit the budget.`
            : data.truncated === true
              ? "Some long messages are shortened."
              : "",
        ]
          .filter(Boolean)
          .join(" ");
  return { heading, summary, messages };
}
