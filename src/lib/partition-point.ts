// One binary search for every sorted list the SPA keeps (transcript entries by
// `start_sequence`, turns and markers by `sequence`): the first index at which a
// monotonic predicate (false … false, true … true) becomes true.

/** The first index whose item satisfies `isAtOrPast`, or `items.length` when none does. */
export function partitionPoint<T>(items: readonly T[], isAtOrPast: (item: T) => boolean): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isAtOrPast(items[middle] as T)) high = middle;
    else low = middle + 1;
  }
  return low;
}
