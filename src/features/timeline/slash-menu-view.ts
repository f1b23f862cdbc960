// The composer's slash-command menu: when it opens, which of the session's advertised
import { shownText } from "../../contract/json-value";
// commands it lists (filtered as the user types), and whether a draft is exactly the
// session's compaction command (sent through Compact now, not as a prompt). Commands come
// from `GET …/commands` (CompozyOS's catalog), read defensively.

export type MenuCommand = {
  /** What is typed: `/compact`. */
  token: string;
  description: string;
  hint: string | undefined;
  available: boolean;
  unavailableReason: string | undefined;
};

type Descriptor = {
  canonical_token?: unknown;
  display_name?: unknown;
  description?: unknown;
  input_hint?: unknown;
  available?: unknown;
  unavailable_reason?: unknown;
  placements?: unknown;
};

/** The catalog's commands a prompt can start with (`/name`, one word), each token once. */
export function menuCommandsOf(descriptors: readonly Descriptor[]): MenuCommand[] {
  const seen = new Set<string>();
  const commands: MenuCommand[] = [];
  for (const descriptor of descriptors) {
    const token = shownText(descriptor.canonical_token) ?? shownText(descriptor.display_name);
    if (token === undefined || !/^\/\S+$/.test(token) || seen.has(token)) continue;
    seen.add(token);
    commands.push({
      token,
      description: shownText(descriptor.description) ?? "",
      hint: shownText(descriptor.input_hint),
      available: descriptor.available !== false,
      unavailableReason: shownText(descriptor.unavailable_reason),
    });
  }
  return commands;
}

/**
 * What the user is typing after a leading `/`, while it is still one word (the menu's
 * filter); undefined once there is a space, a newline, or no leading slash.
 */
export function slashQuery(draft: string): string | undefined {
  const match = /^\/(\S*)$/.exec(draft);
  return match ? (match[1] ?? "") : undefined;
}

/** The most the menu lists at once (Claude advertises 40+). */
export const MENU_LIMIT = 50;

/** Commands whose name starts with the query first, then those containing it anywhere. */
export function matchCommands(commands: readonly MenuCommand[], query: string): MenuCommand[] {
  const needle = query.toLowerCase();
  const name = (command: MenuCommand) => command.token.slice(1).toLowerCase();
  const starts = commands.filter((command) => name(command).startsWith(needle));
  const contains = commands.filter(
    (command) =>
      !name(command).startsWith(needle) &&
      (name(command).includes(needle) || command.description.toLowerCase().includes(needle)),
  );
  return [...starts, ...contains].slice(0, MENU_LIMIT);
}

/** The draft once a command is picked: its token, and a space when it takes input. */
export function pickedDraft(command: MenuCommand): string {
  return command.hint ? `${command.token} ` : command.token;
}

/** The hint line under the composer while a command that takes input is typed. */
export function inputHintOf(draft: string, commands: readonly MenuCommand[]): string | undefined {
  const token = /^(\/\S+)\s/.exec(draft)?.[1];
  if (token === undefined) return undefined;
  const command = commands.find((candidate) => candidate.token === token);
  return command?.hint ? `${command.token} ${command.hint}` : undefined;
}
