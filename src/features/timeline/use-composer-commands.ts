import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { agentSessionQueries } from "../../api/agent-session-queries";
import { compactSessionMutation } from "../../api/compact-session";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { compactionCommandOf, inputHintOf, menuCommandsOf } from "./slash-menu-view";
import { type SlashMenu, useSlashMenu } from "./use-slash-menu";

export type ComposerCommands = {
  menu: SlashMenu;
  /** The draft is exactly the session's compaction command: Send means Compact now. */
  isCompaction: boolean;
  inputHint: string | undefined;
  compact: ReturnType<typeof useCompactMutation>;
};

function useCompactMutation(session: SessionRef) {
  const client = useQueryClient();
  return useMutation(compactSessionMutation(client, session));
}

/**
 * The composer's side of the agent's commands: the slash menu over `GET …/commands`, the
 * hint of a command being typed, and `/compact` (exactly) sent as Compact now, the same
 * request as the button (`trigger: requested`, `requested_by: web`).
 */
export function useComposerCommands(
  session: SessionRef,
  draft: string,
  setDraft: (next: string) => void,
): ComposerCommands {
  const detail = useQuery(sessionQueries.detail(session));
  const advertised = detail.data?.available_commands.length ?? 0;
  const catalog = useQuery({
    ...agentSessionQueries.commands(session, advertised),
    select: (data) => menuCommandsOf(data.commands),
  });
  const commands = catalog.data ?? [];
  const menu = useSlashMenu(draft, commands, setDraft);
  const compact = useCompactMutation(session);
  return {
    menu,
    isCompaction: compactionCommandOf(draft, commands) !== undefined,
    inputHint: inputHintOf(draft, commands),
    compact,
  };
}
