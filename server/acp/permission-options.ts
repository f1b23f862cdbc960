// What a permission request offers and how a choice reads: the agent's options as the
// ledger records them, the title shown, the option a decision or the policy picks, and
// the ACP answer and resolution fields that choosing it makes.
import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@agentclientprotocol/sdk/unstable";
import { decisionOfKind } from "../../src/contract/agent-session";
import type { PermissionOptionRecord } from "../domain/session-recorder-api";
import type { PermissionPolicy } from "./permission-broker";

const TITLE_MAX = 500;

export function optionsOf(request: RequestPermissionRequest): PermissionOptionRecord[] {
  return request.options.map((option) => {
    const decision = decisionOfKind(option.kind);
    return {
      option_id: option.optionId,
      name: option.name,
      kind: option.kind,
      ...(decision === undefined ? {} : { decision }),
    };
  });
}

export function titleOf(request: RequestPermissionRequest): string {
  const title = request.toolCall.title;
  const text = typeof title === "string" && title.trim() !== "" ? title.trim() : undefined;
  return (text ?? request.toolCall.toolCallId).slice(0, TITLE_MAX);
}

/** The option a decision names: its exact optionId first, else the first of that kind. */
export function chooseOption(
  options: readonly PermissionOptionRecord[],
  decision: string,
): PermissionOptionRecord | undefined {
  return (
    options.find((option) => option.option_id === decision) ??
    options.find((option) => option.decision === decision)
  );
}

/** The policy's own answer: undefined under `ask`, null when its kind is not offered. */
export function policyChoice(
  policy: PermissionPolicy,
  options: readonly PermissionOptionRecord[],
): PermissionOptionRecord | null | undefined {
  if (policy === "ask") return undefined;
  const prefix = policy === "reject" ? "reject_" : "allow_once";
  return options.find((option) => option.kind.startsWith(prefix)) ?? null;
}

/** The ACP answer that selects `option`. */
export function selected(option: PermissionOptionRecord): RequestPermissionResponse {
  return { outcome: { outcome: "selected", optionId: option.option_id } };
}

/** The resolution fields that record `option` as the choice. */
export function chosen(option: PermissionOptionRecord) {
  return {
    option_id: option.option_id,
    option_name: option.name,
    option_kind: option.kind,
    ...(option.decision === undefined ? {} : { decision: option.decision }),
  };
}
