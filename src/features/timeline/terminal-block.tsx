import { useState } from "react";
import { ScrollBox } from "../../components/scroll-box";
import { ShowAllButton } from "./show-all-button";
import { boundedLines, type TerminalView, terminalStatus } from "./tool-output-view";

/** Lines of terminal output shown before "Show all": the newest ones. */
export const TERMINAL_LINE_LIMIT = 200;

/** A command's output as the agent reported it, newest lines first shown when bounded. */
export function TerminalBlock({ terminal }: { terminal: TerminalView }) {
  const [expanded, setExpanded] = useState(false);
  const lines = terminal.output.replace(/\n$/, "").split("\n");
  const { shown, hidden } = boundedLines(lines, TERMINAL_LINE_LIMIT, expanded, "tail");
  const status = terminalStatus(terminal);
  return (
    <figure className="min-w-0">
      <figcaption className="flex gap-2 text-xs text-slate-600 dark:text-slate-400">
        <span className="font-medium text-slate-700 dark:text-slate-200">Terminal output</span>
        {status ? <span>{status}</span> : null}
        {terminal.truncated ? <span>(older output was dropped)</span> : null}
      </figcaption>
      {terminal.output === "" ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">No output reported.</p>
      ) : (
        <>
          <ShowAllButton
            hidden={hidden}
            what="earlier output"
            onShowAll={() => setExpanded(true)}
          />
          <ScrollBox className="mt-1 max-h-80 rounded bg-slate-900 dark:bg-black">
            <pre className="p-2 font-mono text-xs text-slate-100">{shown.join("\n")}</pre>
          </ScrollBox>
        </>
      )}
    </figure>
  );
}
