import { useEffect, useId, useState } from "react";
import { Button } from "../../components/button";
import { useModalDialog } from "../../components/use-modal-dialog";

/** Every keyboard shortcut of the page, as the help lists them. */
export const SHORTCUTS: readonly { keys: string; what: string }[] = [
  { keys: "?", what: "Show these shortcuts" },
  { keys: "Ctrl/⌘ + Enter", what: "Send the message" },
  { keys: "/", what: "In an empty message box: the agent's commands" },
  { keys: "Escape", what: "Stop the running turn (in the message box); close a menu or dialog" },
  { keys: "Ctrl/⌘ + F", what: "Find in this session (press again for the browser's Find)" },
  { keys: "Home / End", what: "In the transcript: the first entry / the newest" },
  { keys: "Page Up / Page Down", what: "In the transcript: a screen up or down" },
  { keys: "Tab (first press)", what: "Skip to the message box" },
];

/** Whether a key press is typing rather than a shortcut: it lands in a field. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** `?` anywhere but in a field opens the list of shortcuts; Escape or Done closes it. */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  const [returnTo, setReturnTo] = useState<HTMLElement | null>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "?" || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target) || event.defaultPrevented) return;
      event.preventDefault();
      setReturnTo(document.activeElement instanceof HTMLElement ? document.activeElement : null);
      setOpen(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  const close = () => {
    setOpen(false);
    returnTo?.focus();
  };
  const { ref, dialogProps } = useModalDialog(open, close);
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      {...dialogProps}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-slate-300 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
    >
      {open ? (
        <div className="space-y-3 p-4">
          <h2 id={titleId} className="text-base font-semibold">
            Keyboard shortcuts
          </h2>
          <table className="w-full text-left text-sm">
            <thead className="sr-only">
              <tr>
                <th scope="col">Keys</th>
                <th scope="col">What they do</th>
              </tr>
            </thead>
            <tbody>
              {SHORTCUTS.map((shortcut) => (
                <tr key={shortcut.keys} className="border-t border-slate-200 dark:border-slate-700">
                  <th
                    scope="row"
                    className="py-1.5 pr-3 align-top font-normal sm:whitespace-nowrap"
                  >
                    <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono text-xs dark:border-slate-600 dark:bg-slate-800">
                      {shortcut.keys}
                    </kbd>
                  </th>
                  <td className="py-1.5">{shortcut.what}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="flex justify-end">
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
