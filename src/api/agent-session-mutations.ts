// Answering a permission request, switching the agent's mode and setting one of its config
// options. Each parses the daemon's answer; a refusal is an `ApiError` in its words.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApproveResult, CLIENT_ID_HEADER } from "../contract/commands";
import { SessionEnvelope } from "../contract/session";
import { webClientId } from "./compact-session";
import { postJson, sessionPath } from "./http";
import { type SessionRef, sessionQueries } from "./session-queries";

export type ApproveRequest = { request_id?: string; turn_id?: string; decision: string };

/** `POST …/approve` with the tab's client id, so the daemon records it as answered from the web. */
export function useApproveMutation(ref: SessionRef) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ["sessions", "approve", ref.sessionId],
    mutationFn: (body: ApproveRequest) =>
      postJson(sessionPath(ref.workspaceId, ref.sessionId, "/approve"), body, ApproveResult, {
        headers: { [CLIENT_ID_HEADER]: webClientId() },
      }),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: sessionQueries.detail(ref).queryKey }),
        client.invalidateQueries({ queryKey: sessionQueries.list().queryKey }),
      ]),
  });
}

export type AgentSetting =
  | { kind: "mode"; modeId: string }
  | { kind: "config"; configId: string; value: string | boolean };

/** `POST …/mode` or `POST …/config`: the answer is the session with the agent's new state. */
export function useAgentSettingMutation(ref: SessionRef) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ["sessions", "agent-setting", ref.sessionId],
    mutationFn: (setting: AgentSetting) =>
      setting.kind === "mode"
        ? postJson(
            sessionPath(ref.workspaceId, ref.sessionId, "/mode"),
            { mode_id: setting.modeId },
            SessionEnvelope,
          )
        : postJson(
            sessionPath(ref.workspaceId, ref.sessionId, "/config"),
            { config_id: setting.configId, value: setting.value },
            SessionEnvelope,
          ),
    onSuccess: (data) => client.setQueryData(sessionQueries.detail(ref).queryKey, data),
  });
}
