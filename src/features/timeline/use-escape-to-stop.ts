// Escape stops a running turn, as in a terminal agent. Anything that handles Escape itself
// first (a menu, the context sheet, a rename field) prevents the default, or sits in an
// open <dialog>, and wins: Escape closes the innermost thing, never two at once.
import { useEffect, useRef } from "react";

function shouldStopOnEscape(event: KeyboardEvent, running: boolean): boolean {
  if (event.key !== "Escape" || event.defaultPrevented || !running) return false;
  if (event.isComposing) return false;
  const target = event.target instanceof Element ? event.target : null;
  return !target?.closest("dialog[open], [role='menu'], [role='listbox']");
}

export function useEscapeToStop(running: boolean, stop: () => void): void {
  const latest = useRef({ running, stop });
  latest.current = { running, stop };
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!shouldStopOnEscape(event, latest.current.running)) return;
      event.preventDefault();
      latest.current.stop();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
