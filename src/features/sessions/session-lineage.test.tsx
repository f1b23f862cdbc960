// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { sessionQueries } from "../../api/session-queries";
import type { Session } from "../../contract/session";
import { SessionLineage } from "./session-lineage";

const AT = "2026-01-01T00:00:00Z";
const ref = { workspaceId: "w1", sessionId: "s2" };

function renderLineage(derivation: Session["derivation"]) {
  const client = new QueryClient();
  client.setQueryData(sessionQueries.detail(ref).queryKey, {
    session: {
      id: "s2",
      workspace_id: "w1",
      agent_name: "demo",
      state: "active",
      available_commands: [],
      created_at: AT,
      updated_at: AT,
      ...(derivation === undefined ? {} : { derivation }),
    },
  });
  return render(
    <QueryClientProvider client={client}>
      <SessionLineage session={ref} />
    </QueryClientProvider>,
  );
}

describe("the lineage line", () => {
  it("when a session was continued from one and forked into others, then each is a link", () => {
    renderLineage({
      derived_from: { session_id: "s1", kind: "continue", name: "Billing", created_at: AT },
      derived: [
        { session_id: "s3", kind: "fork", name: "Try A", created_at: AT },
        { session_id: "s4", kind: "fork", name: "Try B", created_at: AT },
      ],
    });
    const nav = screen.getByRole("navigation", { name: "Related sessions" });
    const items = within(nav).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      "Continued from Billing",
      "Forked into Try A, Try B",
    ]);
    expect(within(nav).getByRole("link", { name: "Billing" })).toHaveAttribute(
      "href",
      "/w/w1/s/s1",
    );
    expect(within(nav).getByRole("link", { name: "Try B" })).toHaveAttribute("href", "/w/w1/s/s4");
  });

  it("when the source was forked from one since deleted and continued elsewhere, then it says so", () => {
    renderLineage({
      derived_from: { session_id: "s1", kind: "fork", deleted: true, created_at: AT },
      derived: [{ session_id: "s9", kind: "continue", name: "Next", created_at: AT }],
      continued_in: "s9",
    });
    const nav = screen.getByRole("navigation", { name: "Related sessions" });
    expect(
      within(nav)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Forked from a deleted session", "Continued in Next"]);
    expect(within(nav).getAllByRole("link")).toHaveLength(1);
  });

  it("when a session has no lineage, then nothing is drawn", () => {
    const { container } = renderLineage(undefined);
    expect(container).toBeEmptyDOMElement();
  });
});
