import { afterEach, describe, expect, it, vi } from "vitest";
import { once, untilLoaded } from "./lazy-after-paint";

afterEach(() => {
  vi.useRealTimers();
});

describe("loading a chunk", () => {
  it("when the chunk fails twice (the daemon away), then it is asked for again, 0.5 s then 1 s later, and arrives", async () => {
    vi.useFakeTimers();
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError("Failed to fetch dynamically imported module"))
      .mockRejectedValueOnce(new TypeError("Failed to fetch dynamically imported module"))
      .mockResolvedValue("chunk");
    const loaded = untilLoaded(load);
    await vi.advanceTimersByTimeAsync(499);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(loaded).resolves.toBe("chunk");
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("when the chunk keeps failing, then the wait between tries stops growing at 5 s", async () => {
    vi.useFakeTimers();
    const load = vi.fn<() => Promise<string>>().mockRejectedValue(new Error("offline"));
    void untilLoaded(load);
    await vi.advanceTimersByTimeAsync(500 + 1_000 + 2_000 + 4_000);
    expect(load).toHaveBeenCalledTimes(5);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(load).toHaveBeenCalledTimes(5);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(6);
  });

  it("when it is asked for many times, then it is loaded once and its promise says it is fulfilled", async () => {
    const load = vi.fn(async () => ({ highlight: true }));
    const loader = once(load);
    const first = loader();
    expect(loader()).toBe(first);
    const value = await first;
    expect(load).toHaveBeenCalledTimes(1);
    expect(first).toMatchObject({ status: "fulfilled", value });
  });
});
