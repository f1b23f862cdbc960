import { describe, expect, it } from "vitest";
import { isTicketedStreamRequest } from "./stream-requests";

const ticketed = (method: string, target: string) => {
  const url = new URL(target, "http://x");
  return isTicketedStreamRequest(method, url.pathname, url.searchParams);
};

describe("which requests a CompozyOS gateway authenticates with a stream ticket", () => {
  it("when a GET follows a stream, a log tail, loop-run events or followed extension logs, then it needs a ticket", () => {
    for (const target of [
      "/api/workspaces/w/sessions/s/stream",
      "/api/workspaces/w/sessions/s/stream/",
      "/api/catalog-stream",
      "/api/daemon/log-tail",
      "/api/workspaces/w/loop-runs/r/events",
      "/api/extensions/e/logs?follow=true",
      "/api/extensions/e/logs?follow=1",
    ]) {
      expect(ticketed("GET", target), target).toBe(true);
    }
  });

  it("when the prompt is POSTed (its answer may stream), then it needs a ticket; its neighbours do not", () => {
    expect(ticketed("POST", "/api/workspaces/w/sessions/s/prompt")).toBe(true);
    expect(ticketed("POST", "/api/workspaces/w/sessions/s/prompt/")).toBe(true);
    expect(ticketed("POST", "/api/workspaces/w/sessions/s/prompt/cancel")).toBe(false);
    expect(ticketed("POST", "/api/workspaces//sessions/s/prompt")).toBe(false);
    expect(ticketed("GET", "/api/workspaces/w/sessions/s/prompt")).toBe(false);
  });

  it("when a request reads or writes anything else, then the bearer is enough", () => {
    for (const [method, target] of [
      ["GET", "/api/sessions"],
      ["GET", "/api/workspaces/w/sessions/s/transcript"],
      ["GET", "/api/extensions/e/logs"],
      ["GET", "/api/extensions/e/logs?follow=false"],
      ["GET", "/api/workspaces/w/sessions/s/events"],
      ["POST", "/api/workspaces/w/sessions/s/stream"],
      ["DELETE", "/api/workspaces/w/sessions/s/stream"],
    ] as const) {
      expect(ticketed(method, target), `${method} ${target}`).toBe(false);
    }
  });
});
