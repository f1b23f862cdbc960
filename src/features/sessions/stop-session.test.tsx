// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import type { SessionPhase } from "../../lib/session-phase";
import { daemon, mockDaemon, requestsTo } from "../../testing/msw";
import { StopSession } from "./stop-session";
import { stopWouldInterrupt } from "./stop-session-view";

const ref = { workspaceId: "w1", sessionId: "s1" };
const STOP = "/api/workspaces/w1/sessions/s1/stop";
const requests = mockDaemon(http.post(STOP, () => new HttpResponse(null, { status: 204 })));

function renderStop(phase: SessionPhase, approvals = 0) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <StopSession session={ref} phase={phase} approvals={approvals} />
    </QueryClientProvider>,
  );
}

const stops = () => requestsTo(requests, STOP, "POST");
const trigger = () => screen.getAllByRole("button", { name: "Stop session" })[0] as HTMLElement;

describe("Stop session", () => {
  it("when nothing is running, then it stops at once", async () => {
    renderStop("ready");
    await userEvent.click(trigger());
    await waitFor(() => expect(stops()).toHaveLength(1));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("when a turn runs, then it asks first, says what stopping does, and focuses the safe choice", async () => {
    const user = userEvent.setup();
    renderStop("turn");
    await user.click(trigger());
    const dialog = screen.getByRole("dialog", { name: "Stop this session?" });
    expect(dialog).toHaveAccessibleDescription(
      /If you stop now, the running turn is cancelled\. Stopping ends the agent's process\./,
    );
    expect(screen.getByRole("button", { name: "Keep it running" })).toHaveFocus();
    expect(stops()).toHaveLength(0);

    await user.click(screen.getByRole("button", { name: "Keep it running" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(trigger()).toHaveFocus();
    expect(stops()).toHaveLength(0);
  });

  it("when the person confirms, then it stops the session", async () => {
    const user = userEvent.setup();
    renderStop("compacting");
    await user.click(trigger());
    const dialog = screen.getByRole("dialog", { name: "Stop this session?" });
    expect(dialog).toHaveTextContent("the compaction in progress is cancelled");
    const confirm = screen
      .getAllByRole("button", { name: "Stop session" })
      .find((button) => dialog.contains(button)) as HTMLElement;
    await user.click(confirm);
    await waitFor(() => expect(stops()).toHaveLength(1));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("when an approval waits, then it asks first even with no turn running", async () => {
    renderStop("ready", 1);
    await userEvent.click(trigger());
    expect(screen.getByRole("dialog")).toHaveTextContent(
      "the approval waiting for you is withdrawn",
    );
    expect(stops()).toHaveLength(0);
  });

  it("when the daemon is unreachable, then it stays visible, waits, and says why", async () => {
    renderStop("offline");
    expect(trigger()).toHaveAttribute("aria-disabled", "true");
    expect(trigger()).toHaveAccessibleDescription("Waiting for the daemon to come back…");
    await userEvent.click(trigger());
    expect(stops()).toHaveLength(0);
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("when the daemon refuses, then it says so in plain words", async () => {
    daemon.use(
      http.post(STOP, () =>
        HttpResponse.json(
          { error: "session: not active", code: "session_not_promptable" },
          { status: 400 },
        ),
      ),
    );
    renderStop("ready");
    await userEvent.click(trigger());
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The session isn't running right now, so it can't take this.",
    );
  });
});

describe("stopWouldInterrupt", () => {
  it("names everything open, or nothing", () => {
    expect(stopWouldInterrupt("ready", 0)).toBeUndefined();
    expect(stopWouldInterrupt("turn", 2)).toBe(
      "If you stop now, the running turn is cancelled, and the 2 approvals waiting for you are withdrawn.",
    );
  });
});
