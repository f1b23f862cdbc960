import { useQuery } from "@tanstack/react-query";
import { agentSessionQueries } from "../../api/agent-session-queries";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { inputHintOf, menuCommandsOf } from "./slash-menu-view";
import { type SlashMenu, useSlashMenu } from "./use-slash-menu";

export type ComposerCommands = {
  menu: SlashMenu;
  inputHint: string | undefined;
};

/**
 * The composer's side of the agent's commands: the slash menu over `GET …/commands`, the
 * hint of a command being typed. A typed `/compact` is sent as a prompt (ADR 0116).
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
  return { menu, inputHint: inputHintOf(draft, commands) };
}
