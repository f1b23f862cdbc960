import { useEffect, useLayoutEffect, useRef } from "react";
import { Button } from "../../components/button";
import { SEARCH_QUERY_MAX_CHARS } from "../../contract/search";
import { useFindActions } from "./find-store";
import type { FindBarState } from "./use-find-bar";

/**
 * Find in session (ADR 0231): Ctrl/⌘+F opens it, a second press while its field has the
 * focus is the browser's own Find; Enter and Shift+Enter move between matches; Escape
 * closes it and gives the focus back to where it was.
 */
export function FindBar({ find }: { find: FindBarState }) {
  const field = useRef<HTMLInputElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const { findOpened, findClosed, textTyped } = useFindActions();

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key.toLowerCase() !== "f" || event.altKey || event.shiftKey) return;
      if (!(event.ctrlKey || event.metaKey)) return;
      // Pressed again in the field: the browser's Find, for what is on screen.
      if (document.activeElement === field.current) return;
      event.preventDefault();
      const active = document.activeElement;
      returnTo.current = active instanceof HTMLElement ? active : null;
      findOpened();
      requestAnimationFrame(() => field.current?.select());
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [findOpened]);

  // The field is opened by the person's own shortcut: it is where they type.
  useLayoutEffect(() => {
    if (find.open) field.current?.focus();
  }, [find.open]);

  if (!find.open) return null;
  const close = () => {
    findClosed();
    const target = returnTo.current?.isConnected
      ? returnTo.current
      : document.querySelector<HTMLElement>('[aria-label="Transcript"]');
    target?.focus();
  };
  return (
    <search
      aria-label="Find in session"
      className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-50 px-3 py-1.5 text-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <input
        ref={field}
        type="search"
        aria-label="Find in session"
        placeholder="Find in session"
        maxLength={SEARCH_QUERY_MAX_CHARS}
        value={find.text}
        onChange={(event) => textTyped(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            find.step(event.shiftKey ? -1 : 1);
          } else if (event.key === "Escape") {
            // Only the bar: Escape here must not also stop a running turn.
            event.preventDefault();
            event.stopPropagation();
            close();
          }
        }}
        className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-950"
      />
      <output
        aria-live="polite"
        className="min-w-[5.5rem] text-slate-700 tabular-nums dark:text-slate-300"
      >
        {find.error
          ? "Search failed"
          : find.searching && find.label === ""
            ? "Searching…"
            : find.label}
      </output>
      <Button size="sm" aria-label="Previous match" onClick={() => find.step(-1)}>
        <span aria-hidden="true">↑</span>
      </Button>
      <Button size="sm" aria-label="Next match" onClick={() => find.step(1)}>
        <span aria-hidden="true">↓</span>
      </Button>
      <Button size="sm" tone="ghost" aria-label="Close find" onClick={close}>
        <span aria-hidden="true">✕</span>
      </Button>
      {find.loadedOnly ? (
        <p className="basis-full text-xs text-slate-600 dark:text-slate-400">
          This daemon cannot search a whole session: only the entries loaded so far were searched.
        </p>
      ) : null}
    </search>
  );
}
