// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { beforeEach, describe, expect, it } from "vitest";
import { mockDaemon, pathOf, requestsTo } from "../../testing/msw";
import { codexPending } from "../../testing/permissions";
import { PermissionPart } from "./permission-part";
import { TimelineSession } from "./timeline-session";

const ref = { workspaceId: "w1", sessionId: "s1" };
const APPROVE = "/api/workspaces/w1/sessions/s1/approve";
let approveAnswer: { status: number; body: unknown };
const requests = mockDaemon(
  http.post(APPROVE, () =>
    HttpResponse.json(approveAnswer.body as object, { status: approveAnswer.status }),
  ),
);
const approvals = () => requestsTo(requests, APPROVE, "POST");

beforeEach(() => {
  approveAnswer = {
    status: 200,
    body: {
      outcome: "applied",
      request_id: "perm_1",
      decision: "allow_once",
      option_id: "allow_once",
    },
  };
});

const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });

function renderPart(data: Record<string, unknown>) {
  return render(
    <QueryClientProvider client={client}>
      <TimelineSession.Provider value={ref}>
        <PermissionPart data={data} />
      </TimelineSession.Provider>
    </QueryClientProvider>,
  );
}

describe("PermissionPart", () => {
  it("when an option is pressed, then POST …/approve carries the request, the turn and that optionId from the web", async () => {
    const user = userEvent.setup();
    renderPart(codexPending);
    await user.click(screen.getByRole("button", { name: "Yes, proceed" }));
    await waitFor(() => expect(approvals()).toHaveLength(1));
    expect(requests.map(pathOf)).toEqual([APPROVE]);
    const [approval] = approvals();
    expect(await approval?.json()).toEqual({
      request_id: "perm_1",
      turn_id: "turn_1",
      decision: "allow_once",
    });
    expect(approval?.headers.get("X-Compozy-Client-ID")).toMatch(/^web-/);
  });

  it("when the daemon refuses (already answered elsewhere), then it says so plainly and the options stay", async () => {
    const user = userEvent.setup();
    approveAnswer = {
      status: 409,
      body: {
        error: 'permission request "perm_1" was already resolved by cli: allow-once',
        code: "permission_resolved",
      },
    };
    renderPart(codexPending);
    await user.click(screen.getByRole("button", { name: /No, and tell Codex/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This request was already answered (perhaps in another tab).",
    );
    expect(screen.getByRole("button", { name: "Yes, proceed" })).toBeEnabled();
  });

  it("when the answer comes back in the transcript, then the row reads it and takes the focus", async () => {
    const user = userEvent.setup();
    const { rerender } = renderPart(codexPending);
    await user.click(screen.getByRole("button", { name: "Yes, proceed" }));
    await waitFor(() => expect(approvals()).toHaveLength(1));
    rerender(
      <QueryClientProvider client={client}>
        <TimelineSession.Provider value={ref}>
          <PermissionPart
            data={{
              ...codexPending,
              status: "resolved",
              resolved_by: "web",
              decision: "allow-once",
              option_label: "Yes, proceed",
            }}
          />
        </TimelineSession.Provider>
      </QueryClientProvider>,
    );
    const line = screen.getByText("Allowed once", { exact: true }).closest("p");
    expect(line).toHaveTextContent("“Yes, proceed” · from the browser");
    expect(line).toHaveFocus();
  });
});
