const clock = new Intl.DateTimeFormat(undefined, {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** A wall-clock time (`08:42:23`) for an RFC 3339 timestamp; the input back when unreadable. */
export function formatClockTime(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : clock.format(date);
}

/** Whole milliseconds between two RFC 3339 timestamps, or undefined when either is unreadable. */
export function millisecondsBetween(start: string, end: string): number | undefined {
  const from = Date.parse(start);
  const to = Date.parse(end);
  return Number.isNaN(from) || Number.isNaN(to) ? undefined : Math.max(0, to - from);
}
