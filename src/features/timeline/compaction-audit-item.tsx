import { useId, useState } from "react";
import type { AuditItem } from "../../audit/types";
import { foldedLabel, KIND_LABELS, labelFolds } from "./compaction-audit-view";

const STATUS_CLASSES = {
  dropped:
    "bg-red-100 text-red-900 ring-red-300 dark:bg-red-950 dark:text-red-100 dark:ring-red-800",
  kept: "bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-100 dark:ring-emerald-800",
  unchecked:
    "bg-slate-100 text-slate-800 ring-slate-300 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-600",
} as const;
const STATUS_WORDS = { dropped: "Dropped", kept: "Kept", unchecked: "Not checked" } as const;

/**
 * One item of the inventory: what it is, whether the summary kept it, and why. The label
 * is text (React escapes it): Markdown or HTML in a message shows as typed. A long one
 * folds to its first lines, with a toggle. `select`: a checkbox for Remind the agent.
 */
export function AuditItemView({
  item,
  select,
}: {
  item: AuditItem;
  select?: { checked: boolean; onChange: (checked: boolean) => void } | undefined;
}) {
  const [unfolded, setUnfolded] = useState(false);
  const whyId = useId();
  const checkId = useId();
  const folds = labelFolds(item.label);
  const shown = folds && !unfolded ? foldedLabel(item.label) : item.label;
  const kind =
    item.pinned && item.kind !== "pinned"
      ? `${KIND_LABELS[item.kind]}, pinned`
      : KIND_LABELS[item.kind];
  const body = (
    <>
      <span className="text-xs font-semibold text-slate-700 dark:text-slate-300">{kind}</span>{" "}
      <span
        className={`rounded px-1 text-[11px] font-semibold ring-1 ring-inset ${STATUS_CLASSES[item.status]}`}
      >
        {STATUS_WORDS[item.status]}
      </span>
      {/* The person's words read as prose; paths, commands and identifiers as code. */}
      <span
        className={`mt-0.5 block break-words whitespace-pre-wrap text-slate-900 dark:text-slate-100 ${item.by_person ? "text-sm" : "font-mono text-xs"}`}
      >
        {shown}
      </span>
    </>
  );
  return (
    <li className="flex gap-2 py-1.5">
      {select ? (
        <input
          id={checkId}
          type="checkbox"
          checked={select.checked}
          onChange={(event) => select.onChange(event.target.checked)}
          aria-describedby={whyId}
          className="mt-0.5 size-4 shrink-0 accent-cyan-700"
        />
      ) : null}
      <div className="min-w-0 flex-1">
        {select ? (
          <label htmlFor={checkId} className="block cursor-pointer">
            {body}
          </label>
        ) : (
          <div aria-describedby={whyId}>{body}</div>
        )}
        <p id={whyId} className="text-xs text-slate-600 dark:text-slate-400">
          {item.why}
          {item.mentions > 1 ? ` · mentioned ${item.mentions} times` : ""}
        </p>
        {folds ? (
          <button
            type="button"
            aria-expanded={unfolded}
            onClick={() => setUnfolded(!unfolded)}
            className="text-xs font-medium text-cyan-800 underline underline-offset-2 dark:text-cyan-300"
          >
            {unfolded
              ? "Show less"
              : `Show all ${item.label.length.toLocaleString("en-US")} characters`}
          </button>
        ) : null}
      </div>
    </li>
  );
}
