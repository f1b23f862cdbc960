// Approvals belong to the person (ADR 0091). A `session/request_permission` is recorded as
// `permission.requested`; under `--permissions ask` it then waits, in memory, for
// `POST …/approve`, and the agent gets the chosen `optionId`. Under `reject` or
// `allow-once` the policy answers at once, recorded as such. Every request is closed
// exactly once (`permission.resolved`): by a person, by the policy, by a cancelled turn
// (`cancelled`, as ACP requires), or by the agent going away (`orphaned`).
import { randomUUID } from "node:crypto";
import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@agentclientprotocol/sdk/unstable";
import { decisionOfKind, type PendingInteraction } from "../../src/contract/agent-session";
import type { ApproveBody, ApproveResult } from "../../src/contract/commands";
import type {
  LedgerRow,
  PermissionOptionRecord,
  PermissionResolutionRecord,
  SessionRecorder,
} from "../domain/session-recorder-api";
import { refuse } from "./session-refusal";

export const PERMISSION_POLICIES = ["ask", "reject", "allow-once"] as const;
export type PermissionPolicy = (typeof PERMISSION_POLICIES)[number];

type Pending = {
  requestId: string;
  sessionId: string;
  turnId: string | null;
  toolCallId: string;
  title: string;
  options: PermissionOptionRecord[];
  createdAt: string;
  answer: (response: RequestPermissionResponse) => void;
};

export type PermissionBroker = ReturnType<typeof createPermissionBroker>;

const TITLE_MAX = 500;
const RESOLVED_MEMORY = 1000;

function optionsOf(request: RequestPermissionRequest): PermissionOptionRecord[] {
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

function titleOf(request: RequestPermissionRequest): string {
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

export function createPermissionBroker(deps: {
  recorder: SessionRecorder;
  policy: PermissionPolicy;
  now: () => Date;
  /** Called after every change of a session's pending set. */
  changed: (sessionId: string) => void;
  record: (sessionId: string, what: string, write: () => LedgerRow[]) => LedgerRow[];
}) {
  const { recorder, policy, now, changed, record } = deps;
  const pending = new Map<string, Pending>();
  /** Answered requests (newest RESOLVED_MEMORY), to tell "already answered" from "unknown". */
  const answered = new Map<string, { sessionId: string; how: string }>();

  function resolve(
    entry: Pending,
    response: RequestPermissionResponse,
    resolution: Omit<PermissionResolutionRecord, "request_id" | "tool_call_id" | "outcome">,
  ) {
    pending.delete(entry.requestId);
    answered.set(entry.requestId, {
      sessionId: entry.sessionId,
      how: `${resolution.status} by ${resolution.resolved_by}${
        resolution.decision
          ? `: ${resolution.decision}`
          : resolution.reason
            ? `: ${resolution.reason}`
            : ""
      }`,
    });
    if (answered.size > RESOLVED_MEMORY) {
      const oldest = answered.keys().next().value;
      if (oldest !== undefined) answered.delete(oldest);
    }
    const outcome = response.outcome;
    record(entry.sessionId, "permission.resolved", () =>
      recorder.recordPermissionResolved(entry.sessionId, entry.turnId, {
        request_id: entry.requestId,
        tool_call_id: entry.toolCallId,
        outcome: outcome.outcome,
        ...resolution,
      }),
    );
    entry.answer(response);
    changed(entry.sessionId);
  }

  function selected(option: PermissionOptionRecord): RequestPermissionResponse {
    return { outcome: { outcome: "selected", optionId: option.option_id } };
  }

  function chosen(option: PermissionOptionRecord) {
    return {
      option_id: option.option_id,
      option_name: option.name,
      option_kind: option.kind,
      ...(option.decision === undefined ? {} : { decision: option.decision }),
    };
  }

  /** The policy's own answer, or undefined under `ask`. */
  function policyChoice(options: readonly PermissionOptionRecord[]) {
    if (policy === "ask") return undefined;
    const prefix = policy === "reject" ? "reject_" : "allow_once";
    return options.find((option) => option.kind.startsWith(prefix)) ?? null;
  }

  function close(entries: Pending[], status: "canceled" | "orphaned", reason: string): void {
    for (const entry of entries) {
      resolve(
        entry,
        { outcome: { outcome: "cancelled" } },
        { status, resolved_by: "daemon", reason },
      );
    }
  }

  function ofSession(sessionId: string): Pending[] {
    return [...pending.values()].filter((entry) => entry.sessionId === sessionId);
  }

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
        const entry: Pending = {
          requestId,
          sessionId,
          turnId,
          toolCallId,
          title,
          options,
          createdAt: now().toISOString(),
          answer,
        };
        pending.set(requestId, entry);
        const choice = policyChoice(options);
        if (choice === undefined) {
          changed(sessionId);
          return;
        }
        if (choice === null) {
          // The policy's kind is not offered: decline without choosing anything else.
          resolve(
            entry,
            { outcome: { outcome: "cancelled" } },
            {
              status: "resolved",
              resolved_by: "policy",
              reason: `no ${policy} option offered`,
            },
          );
          return;
        }
        resolve(entry, selected(choice), {
          ...chosen(choice),
          status: "resolved",
          resolved_by: "policy",
        });
      });
    },

    /** `POST …/approve`: throws the contract's refusal when it cannot apply. */
    approve(sessionId: string, body: ApproveBody, resolvedBy: string): ApproveResult {
      const requestId = body.request_id?.trim() ?? "";
      let entry: Pending | undefined;
      if (requestId !== "") {
        entry = pending.get(requestId);
        if (entry === undefined || entry.sessionId !== sessionId) {
          const done = answered.get(requestId);
          if (done !== undefined && done.sessionId === sessionId) {
            throw refuse.permissionResolved(
              `permission request "${requestId}" was already ${done.how}`,
            );
          }
          throw refuse.notFound("permission request");
        }
        if (body.turn_id !== undefined && body.turn_id !== "" && body.turn_id !== entry.turnId) {
          throw refuse.invalid(
            `permission request "${requestId}" does not belong to turn "${body.turn_id}"`,
          );
        }
      } else {
        const inTurn = ofSession(sessionId).filter(
          (candidate) => candidate.turnId === body.turn_id,
        );
        if (inTurn.length > 1) {
          throw refuse.permissionAmbiguous(
            `${inTurn.length} permission requests are pending in turn "${body.turn_id}": give request_id`,
          );
        }
        entry = inTurn[0];
      }
      if (entry === undefined) throw refuse.notFound("pending permission request");
      const option = chooseOption(entry.options, body.decision);
      if (option === undefined) {
        const offered = entry.options.map((candidate) => candidate.option_id).join(", ");
        throw refuse.invalid(`the agent did not offer "${body.decision}"`, {
          decision: `not offered; the options are: ${offered}`,
        });
      }
      resolve(entry, selected(option), {
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
    },

    /** The turn was cancelled: ACP requires every pending request answered `cancelled`. */
    cancelTurn(sessionId: string): void {
      close(ofSession(sessionId), "canceled", "turn cancelled");
    },

    /** The agent stopped or crashed: its requests can no longer be answered. */
    closeSession(sessionId: string, reason: string): void {
      close(ofSession(sessionId), "orphaned", reason);
    },

    /** CompozyOS's `pending_interactions` of one session, oldest first. */
    pendingOf(sessionId: string): PendingInteraction[] {
      return ofSession(sessionId).map((entry) => {
        const decisions = entry.options
          .map((option) => option.decision)
          .filter((decision): decision is string => decision !== undefined);
        return {
          interaction_id: entry.requestId,
          kind: "permission",
          provider_request_id: entry.requestId,
          ...(entry.turnId === null ? {} : { turn_id: entry.turnId }),
          title: entry.title,
          choices: entry.options.map((option) => option.name),
          decisions,
          status: "pending",
          created_at: entry.createdAt,
        };
      });
    },
  };
}
