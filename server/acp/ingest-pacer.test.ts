import { describe, expect, it } from "vitest";
import { createIngestPacer } from "./ingest-pacer";

/** A scheduler the test runs by hand, so each slice is observable. */
function manualScheduler() {
  const runs: (() => void)[] = [];
  return {
    schedule: (run: () => void) => runs.push(run),
    runNext: () => runs.shift()?.(),
    get pending() {
      return runs.length;
    },
  };
}

describe("ingest pacer", () => {
  it("when tasks are pushed, then they run in order, later, not inside push", () => {
    const scheduler = manualScheduler();
    const ran: number[] = [];
    const pacer = createIngestPacer({ pause() {}, resume() {}, schedule: scheduler.schedule });
    for (let i = 0; i < 5; i += 1) pacer.push(() => ran.push(i));
    expect(ran).toEqual([]);
    expect(pacer.queued).toBe(5);
    scheduler.runNext();
    expect(ran).toEqual([0, 1, 2, 3, 4]);
    expect(pacer.queued).toBe(0);
  });

  it("when a slice's time is used up, then it yields and the rest runs in the next slice", () => {
    const scheduler = manualScheduler();
    let clock = 0;
    const ran: number[] = [];
    const pacer = createIngestPacer({
      pause() {},
      resume() {},
      schedule: scheduler.schedule,
      sliceMs: 5,
      now: () => clock,
    });
    for (let i = 0; i < 10; i += 1) {
      pacer.push(() => {
        clock += 2;
        ran.push(i);
      });
    }
    scheduler.runNext();
    // 5 ms of 2 ms tasks: the slice ends after its third task.
    expect(ran).toEqual([0, 1, 2]);
    expect(scheduler.pending).toBe(1);
    while (scheduler.pending > 0) scheduler.runNext();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("when tasks are many and fast, then a slice takes at most maxPerSlice of them, inside `around`", () => {
    const scheduler = manualScheduler();
    const slices: number[] = [];
    let ran = 0;
    const pacer = createIngestPacer({
      pause() {},
      resume() {},
      schedule: scheduler.schedule,
      maxPerSlice: 4,
      around: (slice) => {
        const before = ran;
        slice();
        slices.push(ran - before);
      },
    });
    for (let i = 0; i < 10; i += 1) pacer.push(() => (ran += 1));
    while (scheduler.pending > 0) scheduler.runNext();
    expect(slices).toEqual([4, 4, 2]);
  });

  it("when the queue reaches the high-water mark, then the source is paused until it drains below half", () => {
    const scheduler = manualScheduler();
    const calls: string[] = [];
    const pacer = createIngestPacer({
      pause: () => calls.push("pause"),
      resume: () => calls.push("resume"),
      schedule: scheduler.schedule,
      highWater: 4,
      sliceMs: 1000,
    });
    for (let i = 0; i < 6; i += 1) pacer.push(() => {});
    expect(calls).toEqual(["pause"]);
    scheduler.runNext();
    expect(calls).toEqual(["pause", "resume"]);
  });

  it("when a task throws, then the queue goes on with the next one", () => {
    const scheduler = manualScheduler();
    const ran: string[] = [];
    const pacer = createIngestPacer({ pause() {}, resume() {}, schedule: scheduler.schedule });
    const quiet = console.error;
    console.error = () => {};
    try {
      pacer.push(() => {
        throw new Error("bad line");
      });
      pacer.push(() => ran.push("after"));
      scheduler.runNext();
    } finally {
      console.error = quiet;
    }
    expect(ran).toEqual(["after"]);
  });

  it("when waiting for idle, then the callback runs after the queued tasks, or at once when idle", () => {
    const scheduler = manualScheduler();
    const order: string[] = [];
    const pacer = createIngestPacer({ pause() {}, resume() {}, schedule: scheduler.schedule });
    pacer.whenIdle(() => order.push("idle at once"));
    pacer.push(() => order.push("task"));
    pacer.whenIdle(() => order.push("idle after"));
    expect(order).toEqual(["idle at once"]);
    scheduler.runNext();
    expect(order).toEqual(["idle at once", "task", "idle after"]);
  });

  it("when 100,000 tasks of real work arrive at once, then timers keep running while they are handled", async () => {
    const gaps: number[] = [];
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }, 1);
    let done = 0;
    const pacer = createIngestPacer({ pause() {}, resume() {}, sliceMs: 8 });
    for (let i = 0; i < 100_000; i += 1) {
      pacer.push(() => {
        JSON.parse(`{"sessionUpdate":"agent_message_chunk","n":${i}}`);
        done += 1;
      });
    }
    await new Promise<void>((resolve) => pacer.whenIdle(resolve));
    clearInterval(ticker);
    expect(done).toBe(100_000);
    // Handled in one go, the burst would let the timer fire once at most, at its end.
    expect(gaps.length).toBeGreaterThan(5);
  });
});
