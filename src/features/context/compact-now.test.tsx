// @vitest-environment jsdom
import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { sessionQueries } from "../../api/session-queries";
import type { Session } from "../../contract/session";
import {
  BASE,
  makeSession,
  REF,
  REPORTED,
  railDaemon,
  renderRail,
} from "../../testing/context-rail";
import { daemon, mockDaemon, requestsTo } from "../../testing/msw";

const requests = mockDaemon(...railDaemon);

const noTurns = { turns: [], compactions: [] };
const button = () => screen.getByRole("button", { name: "Compact now" });
const accepted = () =>
  HttpResponse.json(
    { session_id: "s1", prompt_id: "p1", command: "compact", status: "accepted" },
    { status: 202 },
  );
const refused = (error: string, code: string) =>
  HttpResponse.json({ error, code }, { status: 409 });
const posts = () => requestsTo(requests, `${BASE}/compact`, "POST");

/** Every re-read after a settle answers with the same data, so only the POST varies. */
function stubDaemon(
  compact: () => Response | Promise<Response>,
  session: () => Session = () => makeSession(),
) {
  daemon.use(
    http.post(`${BASE}/compact`, compact),
    http.get(BASE, () => HttpResponse.json({ session: session() })),
    http.get(`${BASE}/usage`, () =>
      HttpResponse.json({ usage: { context: REPORTED, turn_count: 1 } }),
    ),
    http.get(`${BASE}/usage/turns`, () => HttpResponse.json(noTurns)),
  );
}

/** A re-read session landing in the cache (the stream re-reads it after transcript frames). */
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
    stubDaemon(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderRail({ session: makeSession(), context: REPORTED, turns: noTurns });

    await userEvent.click(button());
    expect(button()).toHaveAttribute("aria-disabled", "true");
    expect(button()).toHaveAttribute("aria-busy", "true");
    expect(button()).toHaveAttribute("title", "Requesting compaction…");
    expect(button()).toHaveAccessibleDescription("Requesting compaction…");

    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    const [post] = posts();
    expect(new URL(post!.url).pathname).toBe("/api/workspaces/w1/sessions/s1/compact");
    expect(await post?.text()).toBe("{}");
    expect(post?.headers.get("X-Compozy-Client-ID")).toMatch(/^web-/);

    answer(accepted());
    await waitFor(() => expect(button()).not.toHaveAttribute("aria-disabled"));
    expect(button()).toHaveAttribute("aria-busy", "false");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("when pressed from the keyboard, then it keeps focus while in flight and sends only once", async () => {
    let answer: (response: Response) => void = () => {};
    stubDaemon(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderRail({ session: makeSession(), context: REPORTED, turns: noTurns });
    const user = userEvent.setup();

    button().focus();
    await user.keyboard("{Enter}");
    expect(button()).toHaveAttribute("aria-busy", "true");
    expect(button()).toHaveFocus();
    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    await user.keyboard("{Enter}");
    expect(button()).toHaveAttribute("aria-busy", "true");
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
    stubDaemon(() => refused(error, code));
    renderRail({ session: makeSession(), context: REPORTED, turns: noTurns });
    await userEvent.click(button());
    expect(await screen.findByRole("alert")).toHaveTextContent(words);
  });

  it("when the daemon cannot be reached, then it says so", async () => {
    stubDaemon(() => HttpResponse.error());
    renderRail({ session: makeSession(), context: REPORTED, turns: noTurns });
    await userEvent.click(button());
    expect(await screen.findByRole("alert")).toHaveTextContent("Couldn't reach the daemon.");
  });

  it("when the answer carries no error envelope, then it says 'Couldn't request compaction. Try again.'", async () => {
    stubDaemon(() => new HttpResponse("<html>bad gateway</html>", { status: 502 }));
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
        ? refused("session: prompt already in progress", "session_busy")
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
      () => refused("session: prompt already in progress", "session_busy"),
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
