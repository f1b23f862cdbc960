import { describe, expect, it } from "vitest";
import { partitionPoint } from "./partition-point";

describe("partitionPoint", () => {
  const sorted = [1, 3, 3, 5, 8];

  it.each([
    [0, 0],
    [1, 0],
    [2, 1],
    [3, 1],
    [4, 3],
    [8, 4],
    [9, 5],
  ])("when looking for the first item ≥ %d, then it is at %d", (value, index) => {
    expect(partitionPoint(sorted, (item) => item >= value)).toBe(index);
  });

  it("when the list is empty, then the point is 0", () => {
    expect(partitionPoint([], () => true)).toBe(0);
  });

  it("when the list is long, then it asks the predicate about log2(n) times", () => {
    const items = Array.from({ length: 1_000_000 }, (_, i) => i);
    let asked = 0;
    expect(
      partitionPoint(items, (item) => {
        asked += 1;
        return item > 765_432;
      }),
    ).toBe(765_433);
    expect(asked).toBeLessThanOrEqual(21);
  });
});
