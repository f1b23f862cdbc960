import { useEffect, useRef } from "react";
import type { SlashMenu as SlashMenuState } from "./use-slash-menu";

/**
 * The listbox of the slash-command menu, above the composer. Focus stays in the text area
 * (`aria-activedescendant` names the active option); a click picks too.
 */
export function SlashMenu({ menu }: { menu: SlashMenuState }) {
  const list = useRef<HTMLDivElement>(null);
  const activeId = menu.optionId(menu.activeIndex);
  useEffect(() => {
    if (!menu.open) return;
    list.current
      ?.querySelector(`[id="${CSS.escape(activeId)}"]`)
      ?.scrollIntoView?.({ block: "nearest" });
  }, [menu.open, activeId]);
  if (!menu.open) return null;
  return (
    <div
      ref={list}
      id={menu.listboxId}
      role="listbox"
      aria-label="Commands"
      className="max-h-64 overflow-y-auto rounded-md border border-slate-300 bg-white py-1 text-sm shadow-lg dark:border-slate-600 dark:bg-slate-900"
    >
      {menu.matches.map((command, index) => {
        const active = index === menu.activeIndex;
        return (
          // Keyboard use goes through the text area (arrows, Enter/Tab); this is the pointer path.
          // biome-ignore lint/a11y/useKeyWithClickEvents: the options are driven from the text area
          <div
            tabIndex={-1}
            key={command.token}
            id={menu.optionId(index)}
            role="option"
            aria-selected={active}
            aria-disabled={command.available ? undefined : true}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => menu.pick(command)}
            className={`cursor-pointer px-3 py-1.5 ${
              active
                ? "bg-cyan-50 ring-1 ring-cyan-600 ring-inset dark:bg-cyan-950 dark:ring-cyan-500"
                : ""
            }`}
          >
            <span className="flex min-w-0 items-baseline gap-x-2">
              <span className="shrink-0 font-mono font-medium">{command.token}</span>
              {command.hint ? (
                <span className="min-w-0 truncate font-mono text-xs text-slate-600 dark:text-slate-400">
                  {command.hint}
                </span>
              ) : null}
            </span>
            {command.description ? (
              <span className="line-clamp-2 text-xs text-slate-700 dark:text-slate-300">
                {command.description}
              </span>
            ) : null}
            {!command.available && command.unavailableReason ? (
              <span className="block text-xs text-amber-800 dark:text-amber-300">
                {command.unavailableReason}
              </span>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
