// Approvals belong to the person (ADR 0091). A `session/request_permission` is recorded as
// `permission.requested`; under `--permissions ask` it then waits, in memory, for
// `POST …/approve`, and the agent gets the chosen `optionId`. Under `reject` or
// `allow-once` the policy answers at once, recorded as such. Every request is closed
// exactly once (`permission.resolved`): by a person, by the policy, by a cancelled turn
// (`cancelled`, as ACP requires), or by the agent going away (`orphaned`).
// The waiting set is pending-permissions.ts, a person's answer permission-approval.ts.
import { randomUUID } from "node:crypto";
import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@agentclientprotocol/sdk/unstable";
import type { PendingInteraction } from "../../src/contract/agent-session";
import type { ApproveBody, ApproveResult } from "../../src/contract/commands";
import type { LedgerRow, SessionRecorder } from "../domain/session-recorder-api";
import {
  createPendingPermissions,
  type PendingPermission,
  type PendingPermissions,
  pendingInteractionOf,
} from "./pending-permissions";
import { approvePermission } from "./permission-approval";
import { chosen, optionsOf, policyChoice, selected, titleOf } from "./permission-options";

export const PERMISSION_POLICIES = ["ask", "reject", "allow-once"] as const;
export type PermissionPolicy = (typeof PERMISSION_POLICIES)[number];

export type PermissionBroker = ReturnType<typeof createPermissionBroker>;

/** Lets the policy answer a new request at once; leaves it waiting under `ask`. */
function applyPolicy(
  pending: PendingPermissions,
  policy: PermissionPolicy,
  entry: PendingPermission,
  changed: (sessionId: string) => void,
): void {
  const choice = policyChoice(policy, entry.options);
  if (choice === undefined) {
    changed(entry.sessionId);
    return;
  }
  if (choice === null) {
    // The policy's kind is not offered: decline without choosing anything else.
    pending.resolve(
      entry,
      { outcome: { outcome: "cancelled" } },
      { status: "resolved", resolved_by: "policy", reason: `no ${policy} option offered` },
    );
    return;
  }
  pending.resolve(entry, selected(choice), {
    ...chosen(choice),
    status: "resolved",
    resolved_by: "policy",
  });
}

export function createPermissionBroker(deps: {
  recorder: SessionRecorder;
  policy: PermissionPolicy;
  now: () => Date;
  /** Called after every change of a session's pending set. */
  changed: (sessionId: string) => void;
  record: (sessionId: string, what: string, write: () => LedgerRow[]) => LedgerRow[];
}) {
  const { recorder, policy, now, changed, record } = deps;
  const pending = createPendingPermissions({ recorder, changed, record });

  return {
    /** A request from the agent; resolves when someone (or the policy) answers. */
    request(
      sessionId: string,
      turnId: string | null,
      request: RequestPermissionRequest,
    ): Promise<RequestPermissionResponse> {
      const requestId = `perm_${randomUUID()}`;
      const options = optionsOf(request);
      const title = titleOf(request);
      const toolCallId = request.toolCall.toolCallId;
      const kind = typeof request.toolCall.kind === "string" ? request.toolCall.kind : undefined;
      record(sessionId, "permission.requested", () =>
        recorder.recordPermissionRequested(sessionId, turnId, {
          request_id: requestId,
          tool_call_id: toolCallId,
          title,
          ...(kind === undefined ? {} : { kind }),
          tool_call: request.toolCall as unknown as Record<string, unknown>,
          options,
          policy,
        }),
      );
      return new Promise((answer) => {
        const createdAt = now().toISOString();
        const entry = {
          requestId,
          sessionId,
          turnId,
          toolCallId,
          title,
          options,
          createdAt,
          answer,
        };
        pending.add(entry);
        applyPolicy(pending, policy, entry, changed);
      });
    },

    /** `POST …/approve`: throws the contract's refusal when it cannot apply. */
    approve(sessionId: string, body: ApproveBody, resolvedBy: string): ApproveResult {
      return approvePermission(pending, sessionId, body, resolvedBy);
    },

    /** The turn was cancelled: ACP requires every pending request answered `cancelled`. */
    cancelTurn(sessionId: string): void {
      pending.closeSession(sessionId, "canceled", "turn cancelled");
    },

    /** The agent stopped or crashed: its requests can no longer be answered. */
    closeSession(sessionId: string, reason: string): void {
      pending.closeSession(sessionId, "orphaned", reason);
    },

    /** CompozyOS's `pending_interactions` of one session, oldest first. */
    pendingOf(sessionId: string): PendingInteraction[] {
      return pending.ofSession(sessionId).map(pendingInteractionOf);
    },
  };
}
