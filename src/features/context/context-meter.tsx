import { useId } from "react";
import { Button } from "../../components/button";
import { hasMeterValue, type MeterView } from "./context-meter-view";
import { MeterBar } from "./meter-bar";

/** The context meter: one figure, its window, and nothing pretending to be current. */
export function ContextMeter({ view, onRetry }: { view: MeterView; onRetry: () => void }) {
  const labelId = useId();
  return (
    <section aria-labelledby={labelId} className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h2 id={labelId} className="text-sm font-semibold">
          Context window
        </h2>
        {view.estimatedSize ? <EstimatedSizeChip /> : null}
      </div>
      <MeterFigure view={view} labelId={labelId} />
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

/**
 * A `role="meter"` only when there is a figure and a window to measure it against: without
 * `aria-valuenow` a browser reports 0 of 100, the very stale "0 %" this meter must never
 * say. Every other state is a labelled status text.
 */
function MeterFigure({ view, labelId }: { view: MeterView; labelId: string }) {
  const muted = view.kind !== "reading";
  const body = (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span
          className={
            muted
              ? "text-sm font-medium text-slate-700 dark:text-slate-200"
              : "text-2xl font-semibold whitespace-nowrap tabular-nums"
          }
        >
          {view.headline}
        </span>
        {view.kind === "reading" && view.detail ? (
          <span className="text-sm whitespace-nowrap text-slate-600 tabular-nums dark:text-slate-300">
            {view.detail}
          </span>
        ) : null}
      </div>
      <MeterBar fill={view.fill} />
      {view.kind !== "reading" && view.detail ? (
        <p className="text-xs text-slate-600 dark:text-slate-300">{view.detail}</p>
      ) : null}
    </>
  );
  if (hasMeterValue(view)) {
    return (
      // biome-ignore lint/a11y/useSemanticElements: <meter> has no aria-valuetext; the spoken figure ("35% used, 89.7K of 256K tokens") needs it.
      <div
        role="meter"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={view.valueMax}
        aria-valuenow={view.valueNow}
        aria-valuetext={view.valueText}
        className="flex flex-col gap-1.5"
      >
        {body}
      </div>
    );
  }
  return (
    <div
      role="status"
      aria-labelledby={labelId}
      aria-busy={view.kind === "loading" ? true : undefined}
      className="flex flex-col gap-1.5"
    >
      {body}
    </div>
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
