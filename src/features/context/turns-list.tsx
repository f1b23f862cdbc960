import { memo, useId, useState } from "react";
import type { UsageTurnsView } from "../../api/usage-queries";
import { Button } from "../../components/button";
import { deriveTurnsList } from "./turns-list-view";

/** Turns newest first, with their tokens and cost, and the compactions between them. */
// Memoised on `data` (kept identical by the query cache while unchanged): the rail re-renders
// on unrelated reads, and a long session's chart or list is thousands of nodes.
export const TurnsList = memo(function TurnsList({ data }: { data: UsageTurnsView }) {
  const [expanded, setExpanded] = useState(false);
  const headingId = useId();
  const view = deriveTurnsList(data, { expanded });
  const canToggle = expanded || view.hiddenTurns > 0;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h2 id={headingId} className="text-sm font-semibold">
        Turns
      </h2>
      {view.rows.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">No turns yet.</p>
      ) : (
        <ol aria-labelledby={headingId} className="flex flex-col gap-1">
          {view.rows.map((row) =>
            row.kind === "turn" ? (
              <li key={row.key} className="flex items-baseline justify-between gap-3 py-1 text-sm">
                <div className="min-w-0">
                  <p className="font-medium">{row.title}</p>
                  <p className="text-xs text-slate-600 tabular-nums dark:text-slate-300">
                    {row.tokens ?? "No token counts"}
                  </p>
                </div>
                <span className="shrink-0 text-xs text-slate-700 tabular-nums dark:text-slate-200">
                  {row.cost}
                </span>
              </li>
            ) : (
              <li
                key={row.key}
                className="border-l-2 border-amber-600 py-1 pl-2 text-xs text-amber-900 dark:border-amber-400 dark:text-amber-100"
              >
                {row.text}
              </li>
            ),
          )}
        </ol>
      )}
      {canToggle ? (
        <div>
          <Button size="sm" tone="ghost" onClick={() => setExpanded((value) => !value)}>
            {expanded ? "Show only the newest turns" : "Show earlier turns"}
          </Button>
        </div>
      ) : null}
    </section>
  );
});
