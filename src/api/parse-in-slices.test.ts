import { describe, expect, it } from "vitest";
import { z } from "../contract/zod";
import { ApiError, parseInSlices } from "./http";

const Item = z.object({ n: z.int() });
const items = (count: number) => Array.from({ length: count }, (_, n) => ({ n }));

describe("parseInSlices", () => {
  it("when a list is long, then it is parsed a slice at a time with the page given a turn between", async () => {
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(Date.now()), 0);
    let parsedBeforeFirstTick = -1;
    const slowItem = z.pipe(
      Item,
      z.transform((value) => {
        if (ticks.length === 0) parsedBeforeFirstTick = value.n;
        return value;
      }),
    );
    const parsed = await parseInSlices("/x", items(1000), slowItem, undefined, 100);
    clearInterval(timer);
    expect(parsed).toEqual(items(1000));
    // Only the first slice ran before the event loop got a turn.
    expect(parsedBeforeFirstTick).toBe(99);
  });

  it("when an item deep in the list is malformed, then it is the same invalid_response error as one parse", async () => {
    const list: unknown[] = items(900);
    list[850] = { n: "eight hundred" };
    const error = await parseInSlices("/api/x/usage/turns", list, Item, undefined, 100).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "invalid_response" });
    expect((error as Error).message).toMatch(/^Unexpected response from \/api\/x\/usage\/turns: /);
  });

  it("when the request is aborted between slices, then parsing stops", async () => {
    const controller = new AbortController();
    const pending = parseInSlices("/x", items(1000), Item, controller.signal, 100);
    controller.abort();
    await expect(pending).rejects.toThrow();
  });
});
