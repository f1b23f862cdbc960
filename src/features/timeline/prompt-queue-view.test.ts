import { describe, expect, it } from "vitest";
import { QUEUE_COPY, queueTiming } from "./prompt-queue-view";

describe("queueTiming", () => {
  it("when a turn runs, then the queue goes after it and Send now cuts it", () => {
    expect(queueTiming({ state: "active" }, "turn-1")).toBe(QUEUE_COPY.whileTurn);
  });

  it("when the session is stopped, then the queue waits for a resume", () => {
    expect(queueTiming({ state: "stopped" }, undefined)).toBe(QUEUE_COPY.whileStopped);
  });

  it("when idle and active, then the agent takes them in order", () => {
    expect(queueTiming({ state: "active" }, undefined)).toBe(QUEUE_COPY.idle);
  });

  it("when counting, then one message is singular", () => {
    expect(QUEUE_COPY.heading(1)).toBe("1 queued message");
    expect(QUEUE_COPY.heading(3)).toBe("3 queued messages");
  });
});
