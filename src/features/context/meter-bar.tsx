/**
 * The meter's fill, decorative (the figure beside it carries the value). `compact` is the
 * header's small bar, where a sliver needs 4 % to be seen at all; the rail's shows from 1 %.
 */
export function MeterBar({
  fill,
  compact = false,
}: {
  fill: number | undefined;
  compact?: boolean;
}) {
  const minimum = compact ? 4 : 1;
  return (
    <span
      aria-hidden="true"
      className={`block overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700 ${compact ? "h-1.5 w-12" : "h-2"}`}
    >
      {fill !== undefined ? (
        <span
          className="block h-full rounded-full bg-cyan-700 dark:bg-cyan-400"
          style={{ width: `${Math.max(fill * 100, fill > 0 ? minimum : 0)}%` }}
        />
      ) : null}
    </span>
  );
}
