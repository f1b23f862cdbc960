// The one page object: how a person finds things on Tideline's screen (by role and
// accessible name), plus the few direct daemon calls a test needs to set up a scene.
import { expect, type Locator, type Page } from "@playwright/test";
import { asVariant, audit, type Finding, VARIANTS } from "./a11y";
import type { Daemon } from "./daemon";

export type SessionJson = {
  id: string;
  workspace_id: string;
  state: string;
  activity?: { turn_id?: string } | null;
};

export class TidelinePage {
  readonly page: Page;
  readonly daemon: Daemon;
  /** What the accessibility gate found in the states this test reached (the fixture fails on any). */
  readonly findings: Finding[] = [];
  /** The states audited so far, by name. */
  readonly audited: string[] = [];

  constructor(page: Page, daemon: Daemon) {
    this.page = page;
    this.daemon = daemon;
  }

  // --- the daemon, directly -------------------------------------------------------------

  async api<T>(
    method: "GET" | "POST" | "PATCH" | "DELETE",
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const response = await this.page.request.fetch(`${this.daemon.url}${path}`, {
      method,
      headers: { "Content-Type": "application/json", ...headers },
      ...(body === undefined ? {} : { data: JSON.stringify(body) }),
    });
    // 204 (stop, rename on CompozyOS) has no body.
    const text = await response.text();
    return { status: response.status(), body: (text ? JSON.parse(text) : undefined) as T };
  }

  async workspaceId(): Promise<string> {
    const { body } = await this.api<{ workspaces: { id: string }[] }>("GET", "/api/workspaces");
    const first = body.workspaces[0];
    if (!first) throw new Error("the daemon has no workspace");
    return first.id;
  }

  async createSession(name: string | undefined, agent?: string): Promise<SessionJson> {
    const ws = await this.workspaceId();
    const { status, body } = await this.api<{ session: SessionJson }>("POST", "/api/sessions", {
      workspace: ws,
      ...(name ? { name } : {}),
      ...(agent ? { agent_name: agent } : {}),
    });
    expect(status).toBe(201);
    await expect
      .poll(async () => (await this.session(body.session)).state, { timeout: 20_000 })
      .toBe("active");
    return body.session;
  }

  async session(ref: SessionJson): Promise<SessionJson> {
    const { body } = await this.api<{ session: SessionJson }>(
      "GET",
      `/api/workspaces/${ref.workspace_id}/sessions/${ref.id}`,
    );
    return body.session;
  }

  async waitIdle(ref: SessionJson): Promise<void> {
    await expect
      .poll(async () => (await this.session(ref)).activity?.turn_id || "idle", { timeout: 30_000 })
      .toBe("idle");
  }

  // --- the screen ---------------------------------------------------------------------

  async open(ref: SessionJson): Promise<void> {
    await this.page.goto(`/w/${ref.workspace_id}/s/${ref.id}`);
    await expect(this.timeline).toBeVisible();
  }

  /**
   * What the page's session streams carry from now on, as Chromium received it: each
   * stream request's URL, and each SSE frame's event name and data size in bytes.
   */
  async recordStreams(): Promise<{ urls: string[]; frames: { event: string; bytes: number }[] }> {
    const recorded = { urls: [] as string[], frames: [] as { event: string; bytes: number }[] };
    const cdp = await this.page.context().newCDPSession(this.page);
    await cdp.send("Network.enable");
    cdp.on("Network.eventSourceMessageReceived", (message) => {
      recorded.frames.push({ event: message.eventName, bytes: new Blob([message.data]).size });
    });
    this.page.on("request", (request) => {
      if (new URL(request.url()).pathname.endsWith("/stream")) recorded.urls.push(request.url());
    });
    return recorded;
  }

  /**
   * Scrolls the transcript up, a page at a time, until the locator's row is in the virtual
   * window (rows far above the tail are not in the DOM), then brings it into view.
   */
  async scrollUpTo(target: Locator): Promise<void> {
    const transcript = this.page.getByRole("region", { name: "Transcript" });
    await transcript.focus();
    // Each step waits a moment for the rows it scrolled to: on a loaded machine they render
    // after the key, and a count taken before that walked past the target to the top.
    const rendered = () =>
      target
        .first()
        .waitFor({ state: "attached", timeout: 500 })
        .then(
          () => true,
          () => false,
        );
    for (let step = 0; step < 60 && !(await rendered()); step += 1) {
      await this.page.keyboard.press("PageUp");
    }
    await target.first().scrollIntoViewIfNeeded();
  }

  get timeline(): Locator {
    return this.page.getByRole("main", { name: "Session timeline" });
  }

  get rail(): Locator {
    return this.page.getByRole("complementary", { name: "Context" });
  }

  get composer(): Locator {
    return this.page.getByRole("combobox", { name: "Message" });
  }

  get sendButton(): Locator {
    return this.page.getByRole("button", { name: "Send", exact: true });
  }

  /** Stop the running turn (not "Stop session", which ends the session). */
  get stopButton(): Locator {
    return this.page.getByRole("button", { name: "Stop", exact: true });
  }

  get stopSessionButton(): Locator {
    return this.page.getByRole("button", { name: "Stop session" });
  }

  /** What the composer says of a stopped session: a prompt resumes it. */
  get resumeNotice(): Locator {
    return this.page.getByText("This session is stopped. Sending a message resumes it.");
  }

  async send(text: string): Promise<void> {
    await this.composer.fill(text);
    await this.sendButton.click();
  }

  /** The compaction rows, in timeline order. */
  compactionRows(text: string | RegExp): Locator {
    return this.timeline
      .getByRole("status")
      .or(this.timeline.getByRole("alert"))
      .filter({ hasText: text });
  }

  get meter(): Locator {
    return this.page.getByRole("meter", { name: "Context window" });
  }

  get compactNow(): Locator {
    return this.page.getByRole("button", { name: "Compact now" });
  }

  /**
   * A state worth keeping: audited by axe and photographed in both colour schemes at 1280
   * and 360 px (`reports/screens/`, or `TIDELINE_SCREENSHOTS=dir` for the README's
   * set). Findings are collected; the fixture fails the test on any.
   */
  async screenshot(name: string): Promise<void> {
    const dir = process.env.TIDELINE_SCREENSHOTS ?? "reports/screens";
    // `npm run screenshots` keeps only the README's states (TIDELINE_SCREENSHOT_STATES).
    const only = process.env.TIDELINE_SCREENSHOT_STATES?.split(",");
    const keep = only === undefined || only.includes(name);
    for (const variant of VARIANTS) {
      await asVariant(this.page, variant, async () => {
        // The picture first: a transient state (a compaction in progress) may end while axe runs.
        if (keep) {
          await this.page.screenshot({
            path: `${dir}/${name}-${variant.scheme}-${variant.width}.png`,
            fullPage: false,
          });
        }
        this.findings.push(...(await audit(this.page, name, variant)));
      });
    }
    this.audited.push(name);
  }

  /** The accessibility gate alone, for a state not worth a picture. */
  async checkA11y(name: string): Promise<void> {
    for (const variant of VARIANTS) {
      await asVariant(this.page, variant, async () => {
        this.findings.push(...(await audit(this.page, name, variant)));
      });
    }
    this.audited.push(name);
  }
}
