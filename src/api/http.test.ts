// @vitest-environment jsdom
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "../contract/zod";
import { daemon, mockDaemon, pathOf } from "../testing/msw";
import { apiBase, getJson, isOwnOrigin } from "./http";
import { streamUrl } from "./stream-url";

const requests = mockDaemon();

afterEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, "", "/");
});

describe("where the SPA sends its token", () => {
  it("when the page is opened with ?api= pointing elsewhere, then requests stay on the page's origin with the token, and an old remembered override is dropped", async () => {
    window.sessionStorage.setItem("tideline.api", "http://evil.example");
    window.history.replaceState(null, "", "/?api=http://evil.example:9#token=sekret-token");
    daemon.use(http.get("/api/health", () => HttpResponse.json({ status: "ok" })));
    await getJson("/api/health", z.object({ status: z.string() }));
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(pathOf(request!)).toBe("/api/health");
    expect(new URL(request!.url).origin).toBe(window.location.origin);
    expect(request?.headers.get("Authorization")).toBe("Bearer sekret-token");
    expect(apiBase()).toBe("");
    expect(window.sessionStorage.getItem("tideline.api")).toBeNull();
  });

  it("when a stream URL is built under ?api=, then it is relative and carries the token to the page's origin only", () => {
    window.history.replaceState(null, "", "/?api=http://evil.example:9");
    const url = streamUrl({ workspaceId: "ws_1", sessionId: "ses_1" }, undefined, "sekret-token");
    expect(url.startsWith("/api/workspaces/ws_1/sessions/ses_1/stream?")).toBe(true);
    expect(url).toContain("access_token=sekret-token");
  });

  it("when a URL names another origin, then it is not the page's own (no token goes there)", () => {
    expect(isOwnOrigin("/api/sessions")).toBe(true);
    expect(isOwnOrigin(`${window.location.origin}/api/sessions`)).toBe(true);
    expect(isOwnOrigin("http://evil.example/api/sessions")).toBe(false);
    expect(isOwnOrigin("//evil.example/api/sessions")).toBe(false);
    expect(isOwnOrigin("http://[bad")).toBe(false);
  });
});
