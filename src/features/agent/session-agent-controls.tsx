import { useQuery } from "@tanstack/react-query";
import { useAgentSettingMutation } from "../../api/agent-session-mutations";
import { refusalText } from "../../api/refusal-words";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { AgentControls } from "./agent-controls";
import { agentControlsView } from "./agent-controls-view";

/** The open session's agent settings, set through `POST …/mode` and `POST …/config`. */
export function SessionAgentControls({ session }: { session: SessionRef }) {
  const detail = useQuery(sessionQueries.detail(session));
  const setting = useAgentSettingMutation(session);
  if (!detail.data) return null;
  const view = agentControlsView(detail.data);
  if (view.mode === undefined && view.options.length === 0 && view.model === undefined) return null;
  const variables = setting.isPending ? setting.variables : undefined;
  return (
    <div className="border-t border-slate-200 px-3 pt-2 dark:border-slate-800">
      <div className="mx-auto max-w-3xl">
        <AgentControls
          view={view}
          state={{
            setting:
              variables === undefined
                ? undefined
                : variables.kind === "mode"
                  ? "mode"
                  : variables.configId,
            error: setting.error ? refusalText(setting.error) : undefined,
          }}
          onSetMode={(modeId) => setting.mutate({ kind: "mode", modeId })}
          onSetConfig={(configId, value) => setting.mutate({ kind: "config", configId, value })}
        />
      </div>
    </div>
  );
}
