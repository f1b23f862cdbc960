import { useId } from "react";
import { Button } from "../../components/button";
import type { MeterView } from "./context-meter-view";

/** The context meter: one figure, its window, and nothing pretending to be current. */
export function ContextMeter({ view, onRetry }: { view: MeterView; onRetry: () => void }) {
  const labelId = useId();
  const muted = view.kind !== "reading";
  return (
    <section aria-labelledby={labelId} className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h2 id={labelId} className="text-sm font-semibold">
          Context window
        </h2>
        {view.estimatedSize ? <EstimatedSizeChip /> : null}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: <meter> cannot say "no value": unknown and loading states have none, and must not read as 0 */}
      <div
        role="meter"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={view.valueMax}
        aria-valuenow={view.valueNow}
        aria-valuetext={view.valueText}
        aria-busy={view.kind === "loading" ? true : undefined}
        className="flex flex-col gap-1.5"
      >
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <span
            className={
              muted
                ? "text-sm font-medium text-slate-700 dark:text-slate-200"
                : "text-2xl font-semibold tabular-nums"
            }
          >
            {view.headline}
          </span>
          {view.kind === "reading" && view.detail ? (
            <span className="text-sm text-slate-600 tabular-nums dark:text-slate-300">
              {view.detail}
            </span>
          ) : null}
        </div>
        <div className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
          {view.fill !== undefined ? (
            <div
              className="h-full rounded-full bg-cyan-700 dark:bg-cyan-400"
              style={{ width: `${Math.max(view.fill * 100, view.fill > 0 ? 1 : 0)}%` }}
            />
          ) : null}
        </div>
        {view.kind !== "reading" && view.detail ? (
          <p className="text-xs text-slate-600 dark:text-slate-300">{view.detail}</p>
        ) : null}
      </div>
      {view.kind === "error" ? (
        <div>
          <Button size="sm" onClick={onRetry}>
            Retry
          </Button>
        </div>
      ) : null}
    </section>
  );
}

/** "estimated size", explained on hover and on keyboard focus (a `title` alone reaches neither). */
function EstimatedSizeChip() {
  const tipId = useId();
  return (
    <span className="group relative">
      <button
        type="button"
        aria-describedby={tipId}
        className="cursor-help rounded-full border border-amber-600 px-2 py-0.5 text-xs text-amber-800 dark:border-amber-400 dark:text-amber-200"
      >
        estimated size
      </button>
      <span
        id={tipId}
        role="tooltip"
        className="pointer-events-none absolute top-full right-0 z-10 mt-1 hidden w-max max-w-48 rounded bg-slate-900 px-2 py-1 text-xs text-white group-focus-within:block group-hover:block dark:bg-slate-100 dark:text-slate-900"
      >
        size from the model catalog
      </span>
    </span>
  );
}
