import { type KeyboardEvent, useId, useState } from "react";
import { type MenuCommand, matchCommands, pickedDraft, slashQuery } from "./slash-menu-view";

export type SlashMenu = {
  open: boolean;
  matches: MenuCommand[];
  activeIndex: number;
  listboxId: string;
  optionId: (index: number) => string;
  /** Handles the menu's keys; true when the key was the menu's (the caller stops there). */
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  pick: (command: MenuCommand) => void;
  /** The textarea's side of the ARIA combobox pattern (ADR 0135). */
  inputProps: {
    role: "combobox";
    "aria-expanded": boolean;
    "aria-autocomplete": "list";
    "aria-controls": string;
    "aria-activedescendant": string | undefined;
  };
};

/**
 * The slash-command menu's state: open while the draft is `/word` and something matches,
 * until Escape (which holds for that exact draft). Arrows move, Enter or Tab picks.
 */
export function useSlashMenu(
  draft: string,
  commands: readonly MenuCommand[],
  setDraft: (next: string) => void,
): SlashMenu {
  const listboxId = useId();
  const [dismissedAt, setDismissedAt] = useState<string | undefined>(undefined);
  const [cursor, setCursor] = useState({ query: "", index: 0 });
  const query = slashQuery(draft);
  const matches = query === undefined ? [] : matchCommands(commands, query);
  const open = query !== undefined && matches.length > 0 && dismissedAt !== draft;
  // A new filter starts at the top; the index is kept per query, never copied by an effect.
  const activeIndex =
    cursor.query === query ? Math.min(cursor.index, Math.max(0, matches.length - 1)) : 0;
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  const pick = (command: MenuCommand) => {
    const next = pickedDraft(command);
    setDraft(next);
    // A picked `/review` is still a slash word: the menu stays closed for it.
    setDismissedAt(next);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || query === undefined) return false;
    const move = (delta: number) => {
      event.preventDefault();
      setCursor({ query, index: (activeIndex + delta + matches.length) % matches.length });
      return true;
    };
    if (event.key === "ArrowDown") return move(1);
    if (event.key === "ArrowUp") return move(-1);
    const plain = !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
    if ((event.key === "Enter" || event.key === "Tab") && plain) {
      const command = matches[activeIndex];
      if (command === undefined) return false;
      event.preventDefault();
      pick(command);
      return true;
    }
    if (event.key === "Escape") {
      event.preventDefault();
      // The menu closing is all this Escape does (not also stopping a turn, say).
      event.stopPropagation();
      setDismissedAt(draft);
      return true;
    }
    return false;
  };

  return {
    open,
    matches,
    activeIndex,
    listboxId,
    optionId,
    onKeyDown,
    pick,
    inputProps: {
      role: "combobox",
      "aria-expanded": open,
      "aria-autocomplete": "list",
      // Always named, as the pattern asks; while collapsed the listbox is not rendered.
      "aria-controls": listboxId,
      "aria-activedescendant": open ? optionId(activeIndex) : undefined,
    },
  };
}
