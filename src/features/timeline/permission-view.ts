// A `data-compozy-permission` part as an approval to show: what the agent wants to do, the
// agent's own options (in its words), and once answered, what was chosen and by whom. The
// data is loose by contract (CompozyOS's `UIAgentEventPayload`, plus the reference daemon's
// `status`, `option_id`, `option_label`, `reason`, ADR 0091), so every field is read
// defensively: a hostile or partial payload gives a plainer row, never a crash.

import { asJsonObject, shownText } from "../../contract/json-value";
import { type DiffContent, diffContentOf } from "./diff-content";
import { commandOf } from "./tool-output-view";

export type PermissionOption = {
  optionId: string;
  /** The agent's own words for it ("Yes, proceed"). */
  label: string;
  /** ACP `PermissionOptionKind`: allow_once, allow_always, reject_once, reject_always. */
  kind: string;
  tone: "allow" | "reject";
};

export type PermissionView = {
  requestId: string | undefined;
  turnId: string | undefined;
  title: string;
  /** The tool's kind (`execute`, `edit`…), when the agent said. */
  toolKind: string | undefined;
  command: string | undefined;
  diffs: DiffContent[];
  /** Text the agent attached to the tool call ("Write a proof file"). */
  notes: string[];
  options: PermissionOption[];
  pending: boolean;
  /** Once answered: "Allowed once", "Rejected", "Cancelled"… */
  outcome: string | undefined;
  /** "“Yes, proceed” · from the browser". */
  outcomeDetail: string | undefined;
  outcomeTone: "allow" | "reject" | "closed" | undefined;
};

const MAX_OPTIONS = 12;

function optionsOf(raw: Record<string, unknown> | undefined): PermissionOption[] {
  const list = Array.isArray(raw?.options) ? raw.options : [];
  const options: PermissionOption[] = [];
  const seen = new Set<string>();
  for (const entry of list.slice(0, MAX_OPTIONS)) {
    const option = asJsonObject(entry);
    const optionId = shownText(option?.option_id) ?? shownText(option?.optionId);
    if (optionId === undefined || seen.has(optionId)) continue;
    seen.add(optionId);
    const kind = shownText(option?.kind) ?? "";
    options.push({
      optionId,
      label: shownText(option?.label) ?? shownText(option?.name) ?? optionId,
      kind,
      tone: kind.startsWith("reject") ? "reject" : "allow",
    });
  }
  return options;
}

/** CompozyOS decision names (and ACP kinds) in words, for the answered row. */
const DECISION_WORDS: Record<string, string> = {
  "allow-once": "Allowed once",
  allow_once: "Allowed once",
  "allow-always": "Always allowed",
  allow_always: "Always allowed",
  "reject-once": "Rejected",
  reject_once: "Rejected",
  "reject-always": "Always rejected",
  reject_always: "Always rejected",
};

/** Who answered, as the reference daemon records it (`requested_by` names, or a policy). */
const WHO: Record<string, string> = {
  web: "from the browser",
  cli: "from the CLI",
  http: "over the API",
  policy: "by the daemon's --permissions policy",
  daemon: "by the daemon",
};

function whoAnswered(resolvedBy: string | undefined): string | undefined {
  if (resolvedBy === undefined) return undefined;
  return WHO[resolvedBy] ?? `by ${resolvedBy}`;
}

function answeredOutcome(
  data: Record<string, unknown>,
  options: PermissionOption[],
): Pick<PermissionView, "outcome" | "outcomeDetail" | "outcomeTone"> {
  const status = shownText(data.status);
  const reason = shownText(data.reason);
  const who = whoAnswered(shownText(data.resolved_by));
  if (status === "canceled" || status === "cancelled" || status === "orphaned") {
    return {
      outcome: status === "orphaned" ? "Closed unanswered" : "Cancelled",
      outcomeDetail: [reason, who].filter(Boolean).join(" · ") || undefined,
      outcomeTone: "closed",
    };
  }
  const optionId = shownText(data.option_id);
  const decision = shownText(data.decision);
  // A Tideline `decision` may be the option's own id (ADR 0091).
  const chosen =
    options.find((option) => option.optionId === optionId) ??
    options.find((option) => option.optionId === decision);
  const words =
    (decision ? DECISION_WORDS[decision] : undefined) ??
    (chosen ? DECISION_WORDS[chosen.kind] : undefined);
  const label = shownText(data.option_label) ?? chosen?.label;
  if (words === undefined && label === undefined) {
    return {
      outcome: decision ? `Answered: ${decision}` : "Declined without a choice",
      outcomeDetail: [reason, who].filter(Boolean).join(" · ") || undefined,
      outcomeTone: "closed",
    };
  }
  const rejected =
    (decision ?? "").startsWith("reject") || (chosen?.kind ?? "").startsWith("reject");
  return {
    outcome: words ?? (rejected ? "Rejected" : "Allowed"),
    outcomeDetail:
      [label ? `“${label}”` : undefined, who, reason].filter(Boolean).join(" · ") || undefined,
    outcomeTone: rejected ? "reject" : "allow",
  };
}

/**
 * Whether the request still waits for a person: the reference daemon says `pending`; a
 * CompozyOS part without `status` is pending until it carries a decision.
 */
function isPending(data: Record<string, unknown>): boolean {
  const status = shownText(data.status);
  if (status !== undefined) return status === "pending";
  return shownText(data.decision) === undefined && shownText(data.resolved_by) === undefined;
}

export function permissionView(data: Record<string, unknown>): PermissionView {
  const raw = asJsonObject(data.raw);
  const toolCall = asJsonObject(raw?.tool_call) ?? asJsonObject(data.tool_call);
  const options = optionsOf(raw);
  const content = Array.isArray(toolCall?.content) ? toolCall.content : [];
  const diffs = content.map(diffContentOf).filter((diff) => diff !== undefined);
  const notes = content
    .map((block) => asJsonObject(asJsonObject(block)?.content))
    .filter((inner) => inner?.type === "text")
    .map((inner) => shownText(inner?.text))
    .filter((note) => note !== undefined);
  const pending = isPending(data);
  const input = raw?.tool_input ?? toolCall?.rawInput;
  return {
    requestId: shownText(data.request_id) ?? shownText(raw?.request_id),
    turnId: shownText(data.turn_id),
    title: shownText(data.title) ?? shownText(toolCall?.title) ?? "A tool call",
    toolKind: shownText(data.resource) ?? shownText(toolCall?.kind),
    command: commandOf(input),
    diffs,
    notes,
    options,
    pending,
    ...(pending
      ? { outcome: undefined, outcomeDetail: undefined, outcomeTone: undefined }
      : answeredOutcome(data, options)),
  };
}

/** The decision `POST …/approve` carries: the agent's exact optionId (ADR 0091). */
export function approveBody(view: PermissionView, option: PermissionOption) {
  return {
    ...(view.requestId === undefined ? {} : { request_id: view.requestId }),
    ...(view.turnId === undefined ? {} : { turn_id: view.turnId }),
    decision: option.optionId,
  };
}

/** The live region's sentence when a request appears or is answered. */
export function permissionAnnouncement(view: PermissionView): string {
  if (view.pending) return `Approval needed: ${view.title}`;
  return `${view.outcome ?? "Answered"}: ${view.title}`;
}
