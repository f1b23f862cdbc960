import { memo, useId, useState } from "react";
import type { UsageTurnsView } from "../../api/usage-queries";
import { Button } from "../../components/button";
import { type CompactionRequests, deriveTurnsList } from "./turns-list-view";

/** Turns newest first, with their tokens and cost, and the compactions between them. */
// Memoised on `data` (kept identical by the query cache while unchanged): the rail re-renders
// on unrelated reads, and a long session's chart or list is thousands of nodes.
export const TurnsList = memo(function TurnsList({
  data,
  requests,
  total,
}: {
  data: UsageTurnsView;
  requests?: CompactionRequests | undefined;
  total?: string | undefined;
}) {
  const [expanded, setExpanded] = useState(false);
  const headingId = useId();
  const view = deriveTurnsList(data, { expanded, ...(requests ? { requests } : {}) });
  const canToggle = expanded || view.hiddenTurns > 0;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id={headingId} className="text-sm font-semibold">
          Turns
        </h2>
        {total ? (
          <p className="text-xs whitespace-nowrap text-slate-700 tabular-nums dark:text-slate-200">
            Session total <span className="font-semibold">{total}</span>
          </p>
        ) : null}
      </div>
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
                <span className="shrink-0 text-xs whitespace-nowrap text-slate-700 tabular-nums dark:text-slate-200">
                  {row.cost}
                </span>
              </li>
            ) : (
              <li
                key={row.key}
                className={`border-l-2 py-1 pl-2 text-xs ${
                  row.incomplete
                    ? "border-dashed border-slate-500 text-slate-700 dark:border-slate-400 dark:text-slate-200"
                    : "border-amber-600 text-amber-900 dark:border-amber-400 dark:text-amber-100"
                }`}
              >
                {row.incomplete ? <span aria-hidden="true">✕ </span> : null}
                <MarkerText text={row.text} />
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

/** The marker's figures (after its last " · ") never break mid-figure ("140K →" / "28K"). */
function MarkerText({ text }: { text: string }) {
  const cut = text.lastIndexOf(" · ");
  const figures = cut >= 0 ? text.slice(cut + 3) : "";
  if (!/\d/.test(figures)) return <>{text}</>;
  return (
    <>
      {text.slice(0, cut + 3)}
      <span className="whitespace-nowrap tabular-nums">{figures}</span>
    </>
  );
}
