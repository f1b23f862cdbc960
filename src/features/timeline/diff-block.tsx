import { useState } from "react";
import { ScrollBox } from "../../components/scroll-box";
import type { DiffContent } from "./diff-content";
import { buildDiffView, type DiffLine, diffSummary, LINE_LABEL } from "./diff-view";
import { ShowAllButton } from "./show-all-button";
import { boundedLines } from "./tool-output-view";

/** Lines of a diff shown before "Show all". */
export const DIFF_LINE_LIMIT = 200;

const ROW_CLASSES: Record<DiffLine["kind"], string> = {
  added: "bg-emerald-50 text-emerald-950 dark:bg-emerald-950/50 dark:text-emerald-100",
  removed: "bg-red-50 text-red-950 dark:bg-red-950/50 dark:text-red-100",
  context: "",
  hunk: "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
  note: "text-slate-600 italic dark:text-slate-400",
};

const SIGN: Record<DiffLine["kind"], string> = {
  added: "+",
  removed: "−",
  context: " ",
  hunk: "",
  note: "",
};

/**
 * A unified diff of one file: old and new line numbers, a +/− sign and a spoken label on
 * each changed line (colour is the third cue, never the only one).
 */
export function DiffBlock({ diff, proposed = false }: { diff: DiffContent; proposed?: boolean }) {
  const [expanded, setExpanded] = useState(false);
  const view = buildDiffView(diff);
  if (view === "too-large") {
    return (
      <p className="text-xs text-slate-700 dark:text-slate-300">
        {diff.path}: the change is too large to show here (see raw).
      </p>
    );
  }
  const { shown, hidden } = boundedLines(view.lines, DIFF_LINE_LIMIT, expanded);
  return (
    <figure className="min-w-0">
      <figcaption className="flex flex-wrap items-baseline gap-x-2 text-xs">
        <span className="break-all font-mono font-medium">{view.path}</span>
        <span className="text-slate-600 dark:text-slate-400">{diffSummary(view)}</span>
        {proposed ? (
          <span className="text-slate-600 dark:text-slate-400">
            (proposed; the agent did not report it applied)
          </span>
        ) : null}
      </figcaption>
      {view.unchanged ? null : (
        <ScrollBox className="mt-1 max-h-[32rem] rounded border border-slate-200 dark:border-slate-700">
          <table className="w-full border-collapse font-mono text-xs">
            <caption className="sr-only">Changes to {view.path}</caption>
            <thead className="sr-only">
              <tr>
                <th scope="col">Old line</th>
                <th scope="col">New line</th>
                <th scope="col">Change</th>
                <th scope="col">Text</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((line, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their place
                <tr key={index} className={ROW_CLASSES[line.kind]}>
                  <td className="w-px select-none px-1 text-right text-slate-500 dark:text-slate-400">
                    {line.oldNumber ?? ""}
                  </td>
                  <td className="w-px select-none px-1 text-right text-slate-500 dark:text-slate-400">
                    {line.newNumber ?? ""}
                  </td>
                  <td className="w-px select-none px-1 text-center">
                    <span aria-hidden="true">{SIGN[line.kind]}</span>
                    {LINE_LABEL[line.kind] ? (
                      <span className="sr-only">{LINE_LABEL[line.kind]}</span>
                    ) : null}
                  </td>
                  <td className="whitespace-pre-wrap break-all pr-2">{line.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      <ShowAllButton hidden={hidden} what="the diff" onShowAll={() => setExpanded(true)} />
    </figure>
  );
}
