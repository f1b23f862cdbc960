import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { afterFirstRead } from "./after-first-read";

const key = ["transcript", "s1"];
let client: QueryClient;

beforeEach(() => {
  vi.useFakeTimers();
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
});
afterEach(() => vi.useRealTimers());

/** A first read of `key` that lands (or fails) when the test says so. */
function readInFlight() {
  let land: (value: string) => void = () => {};
  let fail: (error: Error) => void = () => {};
  void client
    .prefetchQuery({
      queryKey: key,
      queryFn: () =>
        new Promise<string>((resolve, reject) => {
          land = resolve;
          fail = reject;
        }),
    })
    .catch(() => {});
  return { land: (value: string) => land(value), fail: (error: Error) => fail(error) };
}

describe("afterFirstRead", () => {
  it("when nothing is being read, or the data is held, then it runs at once", () => {
    const then = vi.fn();
    afterFirstRead(client, key, then);
    client.setQueryData(key, "held");
    afterFirstRead(client, key, then);
    expect(then).toHaveBeenCalledTimes(2);
  });

  it("when the first read is in flight, then it runs once that read lands, and only once", async () => {
    const read = readInFlight();
    const then = vi.fn();
    afterFirstRead(client, key, then);
    expect(then).not.toHaveBeenCalled();
    read.land("page");
    await vi.advanceTimersByTimeAsync(0);
    expect(then).toHaveBeenCalledTimes(1);
    client.setQueryData(key, "newer");
    expect(then).toHaveBeenCalledTimes(1);
  });

  it("when the first read fails, then it runs all the same", async () => {
    const read = readInFlight();
    const then = vi.fn();
    afterFirstRead(client, key, then);
    read.fail(new Error("502"));
    await vi.advanceTimersByTimeAsync(0);
    expect(then).toHaveBeenCalledTimes(1);
  });

  it("when the first read hangs, then it runs after the wait, and a cancel before that stops it", async () => {
    readInFlight();
    const waited = vi.fn();
    const cancelled = vi.fn();
    afterFirstRead(client, key, waited, 1_000);
    const cancel = afterFirstRead(client, key, cancelled, 1_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(waited).not.toHaveBeenCalled();
    cancel();
    await vi.advanceTimersByTimeAsync(1);
    expect(waited).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
