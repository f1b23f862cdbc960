// The first screen of a session link (ADR 0217): the session page's frame (sidebar, header,
// transcript, message box) with its newest entries drawn in it, written into the page the
// daemon sends, so they are painted before any script has run. It lies over the SPA as it
// starts, hidden from assistive technology and holding nothing to focus, and the SPA
// removes it once its own rows are painted (src/lib/first-screen.ts).
import { FIRST_SCREEN_ID } from "../contract/first-paint";
import { Entry } from "../contract/transcript";
import { headerTitle } from "../features/sessions/session-header-view";
import { STOPPED_NOTE } from "../features/timeline/row-looks";
import { firstScreenRows } from "./first-screen-rows";
import { el, type HastElement, serialize, text } from "./hast";

/** The newest entries drawn: more than a tall window shows of the shortest rows. */
export const FIRST_SCREEN_ENTRIES = 24;

/** The session as its detail read answers it; only what the frame shows is read. */
export type FirstScreenSession = {
  id: string;
  name?: unknown;
  agent_name?: unknown;
  state?: unknown;
  derivation?: { continued_in?: unknown } | null;
};

const PLACEHOLDER_BUTTON =
  "inline-flex items-center justify-center rounded-md px-2 py-0.5 text-xs border border-slate-300 bg-white text-slate-800 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

const DELETE_PLACEHOLDER =
  "inline-flex items-center justify-center rounded-md px-2 py-0.5 text-xs border border-red-300 bg-white text-red-800 dark:border-red-700 dark:bg-slate-900 dark:text-red-200";

function sidebar(): HastElement {
  return el(
    "div",
    "flex shrink-0 flex-col border-b border-slate-200 bg-slate-50 lg:w-72 lg:border-r lg:border-b-0 dark:border-slate-800 dark:bg-slate-900/60",
    [
      el("div", "flex items-center gap-2 px-3 py-2", [
        el("p", "font-semibold tracking-tight", [text("Tideline")]),
        el(
          "span",
          "ml-auto rounded-md border border-slate-300 px-2 py-0.5 text-sm lg:hidden dark:border-slate-600",
          [text("Sessions ▾")],
        ),
        el("span", "inline-flex min-h-6 items-center px-2 py-0.5 text-xs lg:ml-auto", [
          text("Settings"),
        ]),
      ]),
    ],
  );
}

function header(session: FirstScreenSession): HastElement {
  const title = headerTitle({
    id: session.id,
    name: typeof session.name === "string" ? session.name : "",
  } as Parameters<typeof headerTitle>[0]);
  const agent = typeof session.agent_name === "string" ? session.agent_name : "";
  return el(
    "div",
    "flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-200 px-3 py-2 sm:px-4 dark:border-slate-800",
    [
      el("div", "min-w-40 flex-1", [
        el("div", "flex min-w-0 items-center gap-1", [
          el("p", "truncate text-base font-semibold", [text(title)]),
          el(
            "span",
            "inline-flex size-6 shrink-0 items-center justify-center text-sm text-slate-600 dark:text-slate-300",
            [text("✎")],
          ),
        ]),
        el("p", "flex min-w-0 items-center gap-2 text-xs text-slate-600 dark:text-slate-300", [
          el("span", "truncate leading-4", [text(agent)]),
        ]),
      ]),
      el("span", PLACEHOLDER_BUTTON, [text("Export ▾")]),
      el("span", PLACEHOLDER_BUTTON, [text("Archive")]),
      el("span", DELETE_PLACEHOLDER, [text("Delete…")]),
      // The context figure is the SPA's to show (it is never guessed): its place, empty.
      el(
        "span",
        "flex shrink-0 items-center gap-1.5 rounded-md border border-slate-300 px-2 py-1 lg:border-transparent lg:px-0 lg:py-0 dark:border-slate-600 lg:dark:border-transparent",
        [
          el("span", "text-xs text-slate-600 dark:text-slate-300", [text("Context")]),
          el("span", "block h-1.5 w-12 rounded-full bg-slate-200 dark:bg-slate-700"),
        ],
      ),
    ],
  );
}

function composer(session: FirstScreenSession): HastElement {
  return el(
    "div",
    "border-t border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-950",
    [
      el("div", "mx-auto max-w-3xl space-y-2", [
        ...(session.state === "stopped"
          ? [el("p", "text-sm text-slate-700 dark:text-slate-300", [text(STOPPED_NOTE)])]
          : []),
        el(
          "div",
          "h-[78px] w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-400",
          [text("Message the agent… (/ for commands)")],
        ),
        el("div", "flex items-center justify-end gap-2", [
          el("p", "mr-auto text-xs text-slate-600 dark:text-slate-400", [
            text("Ctrl/⌘ + Enter to send"),
          ]),
          // Disabled, as the SPA's is with an empty box: it cannot be focused or pressed.
          el(
            "button",
            "inline-flex rounded-md px-3 py-1.5 text-sm font-medium bg-slate-400 text-white opacity-70 dark:bg-slate-600 dark:text-slate-950",
            [text("Send")],
            { type: "button", disabled: true, tabIndex: -1 },
          ),
        ]),
      ]),
    ],
  );
}

/** Entries as the transcript read sent them, the unreadable ones left out. */
function readEntries(raw: readonly unknown[]): Entry[] {
  return raw.flatMap((item) => {
    const parsed = Entry.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The first screen's HTML for a session and the newest entries of its first transcript page
 * (oldest first), or undefined when there is nothing to draw or a row it cannot draw.
 */
export function firstScreenHtml(
  session: FirstScreenSession,
  entries: readonly unknown[],
): string | undefined {
  // A continued session's page ends in a notice, not a message box: not drawn here.
  if (session.derivation?.continued_in !== undefined) return undefined;
  const newest = readEntries(entries.slice(-FIRST_SCREEN_ENTRIES));
  if (newest.length === 0) return undefined;
  const rows = firstScreenRows(newest);
  if (rows === undefined) return undefined;
  const transcript = el("div", "relative flex min-h-0 flex-1 flex-col", [
    // Newest at the bottom when they overflow, from the top when they fit: the column is
    // bottom-aligned and its one child at least as tall as the column.
    el("div", "flex min-h-0 flex-1 flex-col justify-end overflow-hidden", [
      el("div", "min-h-full shrink-0", [el("div", "mx-auto w-full max-w-3xl pt-3 pb-4", rows)]),
    ]),
  ]);
  const page = el(
    "div",
    "fixed inset-0 z-50 flex flex-col overflow-hidden bg-white text-slate-900 antialiased lg:flex-row dark:bg-slate-950 dark:text-slate-100",
    [
      sidebar(),
      el("div", "flex min-h-0 min-w-0 flex-1 flex-col lg:flex-row", [
        el("div", "flex min-h-0 min-w-0 flex-1 flex-col", [
          header(session),
          transcript,
          composer(session),
        ]),
        el("div", "hidden w-80 shrink-0 border-l border-slate-200 lg:block dark:border-slate-800"),
      ]),
    ],
    { id: FIRST_SCREEN_ID, ariaHidden: "true" },
  );
  return serialize(page);
}
