import { memo, useId, useState } from "react";
import type { UsageTurnsView } from "../../api/usage-queries";
import {
  type ChartDrop,
  type ChartGeometry,
  type ChartPoint,
  deriveChartGeometry,
  MARKER_RADIUS,
  X_LABEL_OFFSET,
  Y_LABEL_GAP,
} from "./context-chart-geometry";
import type { CompactionRequests } from "./turns-list-view";

const LABEL = "fill-slate-600 text-[11px] dark:fill-slate-300";

/**
 * Hover markers drawn at most: about one per 6 units of a 270-unit plot; more only overlap
 * into a fence, and a long session's thousands of turns (four SVG nodes each) took
 * hundreds of milliseconds to render and lay out. The line still goes through every
 * reading; the table lists the newest.
 */
const MAX_MARKERS = 45;

function markerPoints(points: readonly ChartPoint[]): readonly ChartPoint[] {
  if (points.length <= MAX_MARKERS) return points;
  const stride = Math.ceil(points.length / MAX_MARKERS);
  const last = points.length - 1;
  return points.filter((_, index) => index === last || (last - index) % stride === 0);
}

/** Context over time: each turn's reading, a drop at each compaction, the window on top. */
// Memoised on `data` (kept identical by the query cache while unchanged): the rail re-renders
// on unrelated reads, and a long session's chart or list is thousands of nodes.
export const ContextChart = memo(function ContextChart({
  data,
  requests,
}: {
  data: UsageTurnsView;
  requests?: CompactionRequests | undefined;
}) {
  const headingId = useId();
  const [active, setActive] = useState<string | undefined>(undefined);
  const chart = deriveChartGeometry(data, requests);
  const hovered = chart.points.find((point) => point.key === active);
  const empty = chart.points.length === 0;

  return (
    <section aria-labelledby={headingId} className="relative flex flex-col gap-2">
      <h2 id={headingId} className="text-sm font-semibold">
        Context over time
      </h2>
      {empty ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{chart.summary}</p>
      ) : (
        <>
          <svg
            role="img"
            aria-label={chart.summary}
            viewBox="0 0 320 150"
            className="h-auto w-full overflow-visible"
          >
            <YAxis chart={chart} />
            {chart.window ? <WindowLine chart={chart} window={chart.window} /> : null}
            <path
              d={chart.path}
              fill="none"
              strokeWidth={2}
              strokeLinejoin="round"
              className="stroke-cyan-700 dark:stroke-cyan-400"
            />
            {chart.drops.map((drop) => (
              <CompactionDrop
                key={drop.key}
                drop={drop}
                top={chart.plotTop}
                bottom={chart.baseline}
              />
            ))}
            <ReadingMarkers points={chart.points} active={active} onHover={setActive} />
            <TurnAxis chart={chart} />
          </svg>
          <p aria-hidden="true" className="min-h-4 text-xs text-slate-700 dark:text-slate-200">
            {hovered?.label ?? ""}
          </p>
          <p className="text-xs text-slate-600 dark:text-slate-300">
            {chart.window
              ? `Dashed line: the ${chart.window.label} context window.`
              : (chart.windowNote ?? "")}
          </p>
          <ChartTable rows={chart.rows} hiddenRows={chart.hiddenRows} />
        </>
      )}
    </section>
  );
});

/** Figures up the y axis with their gridlines; the floor solid, the rest dotted. */
function YAxis({ chart }: { chart: ChartGeometry }) {
  return (
    <>
      {chart.yTicks.map((tick) => (
        <g key={tick.label}>
          <line
            x1={chart.plotLeft}
            x2={chart.plotRight}
            y1={tick.y}
            y2={tick.y}
            strokeDasharray={tick.y === chart.baseline ? undefined : "1 3"}
            className={
              tick.y === chart.baseline
                ? "stroke-slate-400 dark:stroke-slate-500"
                : "stroke-slate-300 dark:stroke-slate-700"
            }
          />
          <text x={chart.plotLeft - Y_LABEL_GAP} y={tick.y + 3} textAnchor="end" className={LABEL}>
            {tick.label}
          </text>
        </g>
      ))}
    </>
  );
}

/** The context window as a dashed line across the plot, its size beside it. */
function WindowLine({
  chart,
  window,
}: {
  chart: ChartGeometry;
  window: NonNullable<ChartGeometry["window"]>;
}) {
  return (
    <g>
      <title>{`Context window: ${window.label}`}</title>
      <line
        x1={chart.plotLeft}
        x2={chart.plotRight}
        y1={window.y}
        y2={window.y}
        strokeDasharray="4 3"
        className="stroke-slate-500 dark:stroke-slate-400"
      />
      <text
        x={chart.plotLeft - Y_LABEL_GAP}
        y={window.y + 3}
        textAnchor="end"
        className={`${LABEL} font-semibold`}
      >
        {window.label}
      </text>
    </g>
  );
}

/** The (thinned) readings' hover markers; the hovered one drawn larger. */
function ReadingMarkers({
  points,
  active,
  onHover,
}: {
  points: readonly ChartPoint[];
  active: string | undefined;
  onHover: (key: string | undefined) => void;
}) {
  return (
    <>
      {markerPoints(points).map((point) => (
        <g
          key={point.key}
          onPointerEnter={() => onHover(point.key)}
          onPointerLeave={() => onHover(undefined)}
        >
          <title>{point.label}</title>
          <circle cx={point.x} cy={point.y} r={8} fill="transparent" />
          <circle
            cx={point.x}
            cy={point.y}
            r={point.key === active ? MARKER_RADIUS : 3}
            className="fill-white stroke-cyan-700 dark:fill-slate-950 dark:stroke-cyan-400"
            strokeWidth={2}
          />
        </g>
      ))}
    </>
  );
}

/** Turn names along the x axis, each with a tick under its point. */
function TurnAxis({ chart }: { chart: ChartGeometry }) {
  return (
    <>
      {chart.xLabels.map((label) => (
        <g key={label.text}>
          <line
            x1={label.x}
            x2={label.x}
            y1={chart.baseline}
            y2={chart.baseline + 3}
            className="stroke-slate-400 dark:stroke-slate-500"
          />
          <text
            x={label.x}
            y={chart.baseline + X_LABEL_OFFSET}
            textAnchor={label.anchor}
            className={LABEL}
          >
            {label.text}
          </text>
        </g>
      ))}
    </>
  );
}

/**
 * A compaction: a short tick on the axis (not a line across the plot: fifty of those were a
 * fence), the drop with its arrow when it completed and both ends are known, and a ✕ where
 * a failed or cancelled one started, with no drop and no arrow.
 */
function CompactionDrop({ drop, top, bottom }: { drop: ChartDrop; top: number; bottom: number }) {
  const tone = drop.incomplete
    ? "text-slate-500 dark:text-slate-400"
    : "text-amber-700 dark:text-amber-400";
  const crossAt = drop.yBefore ?? top + 4;
  return (
    <g className={tone}>
      <title>{drop.label}</title>
      <line x1={drop.x} x2={drop.x} y1={bottom - 4} y2={bottom + 2} className="stroke-current" />
      {drop.incomplete ? (
        <path
          d={`M${drop.x - 3} ${crossAt - 3} L${drop.x + 3} ${crossAt + 3} M${drop.x + 3} ${crossAt - 3} L${drop.x - 3} ${crossAt + 3}`}
          strokeWidth={2}
          className="stroke-current"
        />
      ) : null}
      {drop.yBefore !== undefined && drop.yAfter !== undefined ? (
        <line
          x1={drop.x}
          x2={drop.x}
          y1={drop.yBefore}
          y2={drop.yAfter}
          strokeWidth={3}
          className="stroke-current"
        />
      ) : null}
      {drop.yAfter !== undefined ? (
        <path
          d={`M${drop.x - 4} ${drop.yAfter - 5} L${drop.x + 4} ${drop.yAfter - 5} L${drop.x} ${drop.yAfter} Z`}
          className="fill-current"
        />
      ) : null}
    </g>
  );
}

/**
 * The chart's data as a table for screen readers: the same points, in order. The wrapper
 * carries `sr-only`: a table ignores `width`/`overflow`, so hiding the table itself would
 * still stretch the page sideways.
 */
function ChartTable({ rows, hiddenRows }: { rows: ChartGeometry["rows"]; hiddenRows: number }) {
  return (
    <div className="sr-only">
      {hiddenRows > 0 ? (
        <p>
          The table lists the newest {rows.length} points; the {hiddenRows} earlier ones are in the
          turns list.
        </p>
      ) : null}
      <table>
        <caption>Context over time</caption>
        <thead>
          <tr>
            <th scope="col">Point</th>
            <th scope="col">Context</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.name}</th>
              <td>{row.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
