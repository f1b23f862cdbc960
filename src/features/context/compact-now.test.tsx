// @vitest-environment jsdom
import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sessionQueries } from "../../api/session-queries";
import type { Session } from "../../contract/session";
import {
  json,
  makeSession,
  REF,
  REPORTED,
  type Route,
  renderRail,
  stubFetch,
} from "../../testing/context-rail";

afterEach(() => vi.unstubAllGlobals());

const noTurns = { turns: [], compactions: [] };
const button = () => screen.getByRole("button", { name: "Compact now" });
const accepted = () =>
  json({ session_id: "s1", prompt_id: "p1", command: "compact", status: "accepted" }, 202);

/** Every re-read after a settle answers with the same data, so only the POST varies. */
function stubDaemon(compact: Route, session: () => Session = () => makeSession()) {
  return stubFetch({
    "POST /compact": compact,
    "GET ": () => json({ session: session() }),
    "GET /usage": () => json({ usage: { context: REPORTED, turn_count: 1 } }),
    "GET /usage/turns": () => json(noTurns),
  });
}

/** What the stream hook does on `session_updated`; the cache notifies on the next tick. */
async function setSession(client: ReturnType<typeof renderRail>["client"], session: Session) {
  await act(async () => {
    client.setQueryData(sessionQueries.detail(REF).queryKey, { session });
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe("Compact now", () => {
  it("when the agent advertises no compaction command, then the button stays, disabled, with the reason", () => {
    renderRail({
      session: makeSession({ available_commands: [{ name: "/compact", description: "" }] }),
      context: REPORTED,
      turns: noTurns,
    });
    expect(button()).toHaveAttribute("aria-disabled", "true");
    expect(button()).toHaveAccessibleDescription(
      "This agent has no compaction command (it offers neither /compact nor /compress)",
    );
  });

  it("when the agent advertises compress, then the button is offered", () => {
    renderRail({
      session: makeSession({ available_commands: [{ name: "compress", description: "" }] }),
      turns: noTurns,
    });
    expect(button()).not.toHaveAttribute("aria-disabled");
    expect(button()).not.toHaveAttribute("title");
  });

  it("when pressed, then it posts {} with a web client id, is busy in flight, then is enabled again", async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubDaemon(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderRail({ session: makeSession(), context: REPORTED, turns: noTurns });

    await userEvent.click(button());
    expect(button()).toHaveAttribute("aria-disabled", "true");
    expect(button()).toHaveAttribute("aria-busy", "true");
    expect(button()).toHaveAttribute("title", "Requesting compaction…");
    expect(button()).toHaveAccessibleDescription("Requesting compaction…");

    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(post?.[0]).toBe("/api/workspaces/w1/sessions/s1/compact");
    expect(post?.[1]?.body).toBe("{}");
    const headers = (post?.[1]?.headers ?? {}) as Record<string, string>;
    expect(headers["X-Compozy-Client-ID"]).toMatch(/^web-/);

    answer(accepted());
    await waitFor(() => expect(button()).not.toHaveAttribute("aria-disabled"));
    expect(button()).toHaveAttribute("aria-busy", "false");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("when pressed from the keyboard, then it keeps focus while in flight and sends only once", async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubDaemon(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderRail({ session: makeSession(), context: REPORTED, turns: noTurns });
    const user = userEvent.setup();

    button().focus();
    await user.keyboard("{Enter}");
    expect(button()).toHaveAttribute("aria-busy", "true");
    expect(button()).toHaveFocus();
    await user.keyboard("{Enter}");
    const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === "POST");
    expect(posts()).toHaveLength(1);

    answer(accepted());
    await waitFor(() => expect(button()).toHaveAttribute("aria-busy", "false"));
    expect(button()).toHaveFocus();
  });

  it("while a turn runs, then it is disabled and says why", () => {
    renderRail({
      session: makeSession({ activity: { turn_id: "t1", turn_source: "user" } }),
      turns: noTurns,
    });
    expect(button()).toHaveAttribute("aria-disabled", "true");
    expect(button()).toHaveAttribute("title", "A turn is running");
    expect(button()).toHaveAccessibleDescription("A turn is running");
  });

  it.each([
    ["stopped", "Session is stopped"],
    ["starting", "Session is starting"],
    ["stopping", "Session is stopping"],
  ] as const)("when the session is %s, then it is disabled and says why", (state, reason) => {
    renderRail({ session: makeSession({ state }), turns: noTurns });
    expect(button()).toHaveAttribute("aria-disabled", "true");
    expect(button()).toHaveAttribute("title", reason);
    expect(screen.getByText(reason)).toBeVisible();
  });

  it.each([
    [
      "session_busy",
      "session: prompt already in progress",
      "The agent is still working on a turn. Try again when it ends, or stop it first.",
    ],
    [
      "compaction_unsupported",
      "session: agent does not advertise a compaction command",
      "This agent has no compaction command, so it can't compact on request.",
    ],
    [
      "session_not_promptable",
      "session: not active",
      "The session isn't running right now, so it can't take this.",
    ],
    [
      "internal",
      "database is locked",
      "The daemon hit an internal error. Try again; its log has the details.",
    ],
    ["goal_budget_fenced", "goal: budget fenced", "goal: budget fenced"],
  ])("when refused with %s, then it says so in plain words", async (code, error, words) => {
    stubDaemon(() => json({ error, code }, 409));
    renderRail({ session: makeSession(), context: REPORTED, turns: noTurns });
    await userEvent.click(button());
    expect(await screen.findByRole("alert")).toHaveTextContent(words);
  });

  it("when the daemon cannot be reached, then it says so", async () => {
    stubDaemon(() => Promise.reject(new TypeError("Failed to fetch")));
    renderRail({ session: makeSession(), context: REPORTED, turns: noTurns });
    await userEvent.click(button());
    expect(await screen.findByRole("alert")).toHaveTextContent("Couldn't reach the daemon.");
  });

  it("when the answer carries no error envelope, then it says 'Couldn't request compaction. Try again.'", async () => {
    stubDaemon(() => new Response("<html>bad gateway</html>", { status: 502 }));
    renderRail({ session: makeSession(), context: REPORTED, turns: noTurns });
    await userEvent.click(button());
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Couldn't request compaction. Try again.",
    );
  });

  it("a refusal clears on the next attempt", async () => {
    let refuse = true;
    let answer: (response: Response) => void = () => {};
    stubDaemon(() =>
      refuse
        ? json({ error: "session: prompt already in progress", code: "session_busy" }, 409)
        : new Promise<Response>((resolve) => (answer = resolve)),
    );
    renderRail({ session: makeSession(), context: REPORTED, turns: noTurns });
    await userEvent.click(button());
    await screen.findByRole("alert");
    refuse = false;
    await waitFor(() => expect(button()).not.toHaveAttribute("aria-disabled"));
    await userEvent.click(button());
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    answer(accepted());
    await waitFor(() => expect(button()).not.toHaveAttribute("aria-disabled"));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("a refusal raced by another client's turn stays while that turn runs and clears when it ends", async () => {
    let current = makeSession();
    stubDaemon(
      () => json({ error: "session: prompt already in progress", code: "session_busy" }, 409),
      () => current,
    );
    const { client } = renderRail({ session: current, context: REPORTED, turns: noTurns });
    await userEvent.click(button());
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The agent is still working on a turn.",
    );

    current = makeSession({ activity: { turn_id: "t9", turn_source: "user" } });
    await setSession(client, current);
    expect(screen.getByRole("alert")).toBeVisible();
    expect(button()).toHaveAccessibleDescription("A turn is running");

    current = makeSession();
    await setSession(client, current);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(button()).not.toHaveAttribute("aria-disabled");
  });
});
