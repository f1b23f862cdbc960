import { useEffect, useState } from "react";
import { Button } from "../../components/button";
import { ModalDialog } from "../../components/modal-dialog";
import { isTextEntry } from "../../lib/text-entry";

/** Every keyboard shortcut of the page, as the help lists them. */
const SHORTCUTS: readonly { keys: string; what: string }[] = [
  { keys: "?", what: "Show these shortcuts" },
  { keys: "Ctrl/⌘ + Enter", what: "Send the message" },
  { keys: "/", what: "In an empty message box: the agent's commands" },
  { keys: "Escape", what: "Stop the running turn (in the message box); close a menu or dialog" },
  { keys: "Ctrl/⌘ + F", what: "Find in this session (press again for the browser's Find)" },
  { keys: "Home / End", what: "In the transcript: the first entry / the newest" },
  { keys: "Page Up / Page Down", what: "In the transcript: a screen up or down" },
  { keys: "Tab (first press)", what: "Skip to the message box" },
];

/** `?` anywhere but in a field opens the list of shortcuts; Escape or Done closes it. */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "?" || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTextEntry(event.target) || event.defaultPrevented) return;
      event.preventDefault();
      setOpen(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  // The modal dialog gives focus back to whatever had it when "?" was pressed.
  const close = () => setOpen(false);
  return (
    <ModalDialog open={open} onClose={close} title="Keyboard shortcuts" width="lg">
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
              <th scope="row" className="py-1.5 pr-3 align-top font-normal sm:whitespace-nowrap">
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
    </ModalDialog>
  );
}
