// Real agents through the browser (issue 10): recorded Claude Code and Codex conversations
// replayed by a real agent process (server/testing/fixtures/replay-agent.mjs) behind the real
// daemon, with approvals held for a person (`--permissions ask`, the default). Each replay
// records what the daemon sent it, so a test can check the agent got the option pressed.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { TidelinePage } from "./tideline-page";

const ROOT = resolve(import.meta.dirname, "..");
const REPLAY = join(ROOT, "server/testing/fixtures/replay-agent.mjs");
const FIXTURES = join(ROOT, "server/testing/fixtures/real-agents");
const records = mkdtempSync(join(tmpdir(), "tideline-e2e-agents-"));

function replay(name: string, fixture: string): string {
  return `${name}=${process.execPath} ${REPLAY} ${join(FIXTURES, fixture)} --record ${join(records, `${name}.jsonl`)}`;
}

/** What the daemon sent one replay agent, newest last. */
function received(
  agent: string,
): Array<{ method?: string; id?: unknown; params?: unknown; result?: unknown }> {
  return readFileSync(join(records, `${agent}.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

test.use({
  daemonArgs: [
    "--no-welcome",
    "--agent",
    replay("codex", "codex-acp-2.6.0.permission-request.jsonl"),
    "--agent",
    replay("claude", "claude-agent-acp-0.101.0.permission-request-manual-mode.jsonl"),
    "--agent",
    replay("claude-tools", "claude-agent-acp-0.101.0.tools-auto-mode.jsonl"),
  ],
});

/**
 * Light and dark, wide and narrow: the named state as four screenshots, each audited by axe
 * (the page object's `screenshot` takes every variant itself).
 */
async function shoot(_page: Page, tideline: TidelinePage, name: string) {
  await tideline.screenshot(`agents-${name}`);
}

test("when Codex asks to run a command, then the person allows it once by keyboard and Codex gets that option", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Codex approval", "codex");
  await tideline.open(session);
  await tideline.send("please run-command now");

  const request = tideline.timeline.getByRole("group", { name: /Needs your approval/ });
  await expect(request).toBeVisible();
  await expect(request).toContainText("touch /home/user/.agent && echo probe-done");
  await expect(request).toContainText("execute");
  await expect(page.getByRole("link", { name: /needs approval/ })).toBeVisible();
  await expect(page).toHaveTitle(/Needs approval/);
  const allow = request.getByRole("button", { name: "Yes, proceed" });
  await expect(request.getByRole("button", { name: /No, and tell Codex/ })).toBeVisible();
  await request.scrollIntoViewIfNeeded();
  await shoot(page, tideline, "approval-pending");

  await allow.focus();
  await page.keyboard.press("Enter");
  const answered = tideline.timeline.getByText("Allowed once", { exact: true });
  await expect(answered).toBeVisible();
  await expect(tideline.timeline.getByText("“Yes, proceed” · from the browser")).toBeVisible();
  await expect(request).toHaveCount(0);
  await expect(page).not.toHaveTitle(/Needs approval/);
  await expect(page.getByRole("link", { name: /needs approval/ })).toHaveCount(0);

  const answer = received("codex").find(
    (frame) => frame.method === undefined && JSON.stringify(frame.result ?? {}).includes("outcome"),
  );
  expect(answer?.result).toEqual({ outcome: { outcome: "selected", optionId: "allow_once" } });

  // The command's output, as Codex reported it in _meta.terminal_output_delta.
  await tideline.waitIdle(session);
  const tool = tideline.timeline.getByRole("button", { name: /touch \/home\/user\/\.agent/ });
  await tool.click();
  await expect(tideline.timeline.getByText("Terminal output")).toBeVisible();
  await expect(tideline.timeline.getByText("probe-done", { exact: true })).toBeVisible();
  await expect(tideline.timeline.getByText("exit 0")).toBeVisible();
  await shoot(page, tideline, "approval-answered-terminal");
  expect(consoleErrors).toEqual([]);
});

test("when Claude asks in Manual mode, then the person rejects by keyboard, switches the mode, and the title shows", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  // No name: the title the agent gives the session becomes its name.
  const session = await tideline.createSession(undefined, "claude");
  await tideline.open(session);
  const mode = page.getByRole("combobox", { name: "Mode", exact: true });
  await expect(mode).toHaveValue("default");
  await tideline.send("please run FAKE_TOOL_BASH");

  const request = tideline.timeline.getByRole("group", { name: /Needs your approval/ });
  await expect(request).toContainText("echo fake-bash-ran > bash-proof.txt");
  await expect(request).toContainText("Write a proof file");
  await request.getByRole("button", { name: "No", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(tideline.timeline.getByText("Rejected", { exact: true })).toBeVisible();
  const answer = received("claude").find(
    (frame) => frame.method === undefined && JSON.stringify(frame.result ?? {}).includes("outcome"),
  );
  expect(answer?.result).toEqual({ outcome: { outcome: "selected", optionId: "reject" } });
  await tideline.waitIdle(session);

  // The title Claude gave the session (session_info_update) names it in the sidebar.
  await expect(page.getByRole("link", { name: /Fake/ })).toBeVisible();

  await mode.focus();
  await mode.selectOption({ label: "Plan" });
  await expect(mode).toHaveValue("plan");
  await expect(page.getByText("Create a plan before making changes")).toBeVisible();
  expect(received("claude").filter((frame) => frame.method === "session/set_mode")).toEqual([
    expect.objectContaining({ params: { sessionId: expect.any(String), modeId: "plan" } }),
  ]);
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Mode", exact: true })).toHaveValue("plan");
  await expect(tideline.timeline.getByText("Rejected", { exact: true })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("when Claude's Write is refused by its Auto mode, then the diff it proposed is shown with line numbers and signs", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Claude tools", "claude-tools");
  await tideline.open(session);
  await tideline.send("please run FAKE_TOOL_BASH");
  await tideline.waitIdle(session);
  // Claude Code's informational warning: its text is readable in the row, not only a title.
  const notice = tideline.timeline.getByText(/Nothing breaks: auto mode keeps working/);
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("We're changing auto mode");
  await notice.scrollIntoViewIfNeeded();
  await shoot(page, tideline, "notice");
  await tideline.send("please FAKE_TOOL_WRITE");
  await tideline.waitIdle(session);
  const writes = tideline.timeline.getByRole("button", { name: /Write/ });
  await writes.last().click();
  const diff = tideline.timeline.getByRole("table", { name: /Changes to / });
  await expect(diff).toBeVisible();
  await expect(diff.getByText("added").first()).toBeAttached();
  await expect(
    tideline.timeline.getByText(/new file, \d+ lines?|\+\d+ −\d+/).first(),
  ).toBeVisible();
  await diff.scrollIntoViewIfNeeded();
  await shoot(page, tideline, "diff");
  expect(consoleErrors).toEqual([]);
});

test("when '/' is typed, then the agent's commands open as a menu driven by keyboard", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  const session = await tideline.createSession("Claude commands", "claude-tools");
  await tideline.open(session);
  await tideline.composer.focus();
  await expect(tideline.composer).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.type("/");
  const menu = page.getByRole("listbox", { name: "Commands" });
  await expect(menu).toBeVisible();
  // The ARIA combobox pattern on the text area (ADR 0135).
  await expect(tideline.composer).toHaveAttribute("aria-expanded", "true");
  await expect(tideline.composer).toHaveAttribute(
    "aria-controls",
    (await menu.getAttribute("id")) ?? "",
  );
  await expect(menu.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
  await page.keyboard.type("co");
  await expect(menu.getByRole("option", { name: /\/compact/ })).toBeVisible();
  await shoot(page, tideline, "slash-menu");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Tab");
  await expect(tideline.composer).toHaveValue(/^\/co\S+/);
  await expect(tideline.composer).toBeFocused();
  await expect(menu).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("when New session is used, then the person picks an agent and names it, and lands in its message box", async ({
  page,
  tideline,
  consoleErrors,
}) => {
  await page.goto("/");
  await page.getByRole("button", { name: "New session" }).click();
  const dialog = page.getByRole("dialog", { name: "New session" });
  await expect(dialog.getByRole("radio", { name: /^codex/ })).toBeChecked();
  await dialog.getByRole("radio", { name: "claude", exact: true }).check();
  await dialog.getByRole("textbox", { name: "Name (optional)" }).fill("Picked Claude");
  await dialog.getByRole("button", { name: "Create session" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("link", { name: /Picked Claude/ })).toBeVisible();
  await expect(tideline.composer).toBeFocused();
  await expect(page.getByRole("link", { name: /Picked Claude/ })).toContainText("claude");
  expect(consoleErrors).toEqual([]);
});
