// `POST …/approve`: which pending request a person's answer names (its request_id, or the
// only one pending in the turn), and the option their decision picks. Anything that
// cannot apply is refused with the contract's errors; nothing is resolved then.
import type { ApproveBody, ApproveResult } from "../../src/contract/commands";
import type { PendingPermission, PendingPermissions } from "./pending-permissions";
import { chooseOption, chosen, selected } from "./permission-options";
import { refuse } from "./session-refusal";

/** The request `body` names in `sessionId`; throws the refusal when there is none. */
function approvalTarget(
  pending: PendingPermissions,
  sessionId: string,
  body: ApproveBody,
): PendingPermission {
  const requestId = body.request_id?.trim() ?? "";
  let entry: PendingPermission | undefined;
  if (requestId !== "") {
    entry = pending.get(requestId);
    if (entry === undefined || entry.sessionId !== sessionId) {
      const how = pending.answeredHow(requestId, sessionId);
      if (how !== undefined) {
        throw refuse.permissionResolved(`permission request "${requestId}" was already ${how}`);
      }
      throw refuse.notFound("permission request");
    }
    if (body.turn_id !== undefined && body.turn_id !== "" && body.turn_id !== entry.turnId) {
      throw refuse.invalid(
        `permission request "${requestId}" does not belong to turn "${body.turn_id}"`,
      );
    }
  } else {
    const inTurn = pending
      .ofSession(sessionId)
      .filter((candidate) => candidate.turnId === body.turn_id);
    if (inTurn.length > 1) {
      throw refuse.permissionAmbiguous(
        `${inTurn.length} permission requests are pending in turn "${body.turn_id}": give request_id`,
      );
    }
    entry = inTurn[0];
  }
  if (entry === undefined) throw refuse.notFound("pending permission request");
  return entry;
}

/** Resolves the named request with the person's decision; throws when it cannot apply. */
export function approvePermission(
  pending: PendingPermissions,
  sessionId: string,
  body: ApproveBody,
  resolvedBy: string,
): ApproveResult {
  const entry = approvalTarget(pending, sessionId, body);
  const option = chooseOption(entry.options, body.decision);
  if (option === undefined) {
    const offered = entry.options.map((candidate) => candidate.option_id).join(", ");
    throw refuse.invalid(`the agent did not offer "${body.decision}"`, {
      decision: `not offered; the options are: ${offered}`,
    });
  }
  pending.resolve(entry, selected(option), {
    ...chosen(option),
    status: "resolved",
    resolved_by: resolvedBy,
  });
  return {
    outcome: "applied",
    interaction_id: entry.requestId,
    request_id: entry.requestId,
    decision: body.decision,
    ...(option.decision === undefined ? {} : { resolved_decision: option.decision }),
    option_id: option.option_id,
  };
}
