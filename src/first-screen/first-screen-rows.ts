// The newest entries of a session as the timeline draws them, for the daemon's first screen
// (ADR 0217): speaker and Copy above a message, Markdown (folded where the SPA folds it),
// Thinking and tool calls collapsed, notices and event lines. A row it cannot draw the way
// the SPA will (a compaction, a permission, a file, anything unknown) is refused, and the
// page goes without a first screen rather than show one that jumps when the SPA arrives.

import { ROW_ACTION } from "../components/looks";
import { type Entry, type Part, speakerOf } from "../contract/transcript";
import { describeEvent } from "../features/timeline/event-line";
import { foldText, hiddenLabel } from "../features/timeline/fold-text";
import { noticeView } from "../features/timeline/notice-view";
import {
  DISCLOSURE,
  EVENT_LINE,
  NOTICE_BOX,
  NOTICE_LABEL,
  NOTICE_TONE,
  SHOW_MORE,
  SHOW_MORE_COUNT,
  SPEAKER_LABEL,
  TOOL_BOX,
  TOOL_KIND,
  TOOL_STATE,
  TOOL_STATUS,
  TOOL_TITLE,
  USER_BUBBLE,
} from "../features/timeline/row-looks";
import {
  foldStateLines,
  messageText,
  SPEAKER_NAMES,
  showsSpeaker,
} from "../features/timeline/timeline-view";
import { type AnyToolPart, toolKind, toolState, toolTitle } from "../features/timeline/tool-view";
import { maintenanceSender, metadataFlag } from "../lib/compaction-origin";
import { el, type HastChild, type HastElement, text } from "./hast";
import { markdownTree } from "./markdown-html";

/** Longer text than this is not parsed for a picture: the page goes without one. */
export const MAX_PART_CHARS = 16_000;

class Undrawable extends Error {}

function disclosure(look: keyof typeof DISCLOSURE, children: HastChild[]): HastElement {
  return el("span", DISCLOSURE[look], [
    el("span", "transition-transform", [text("▸")]),
    ...children,
  ]);
}

function markdown(source: string): HastElement {
  if (source.length > MAX_PART_CHARS) throw new Undrawable();
  return markdownTree(source);
}

function textPart(source: string, foldLong: boolean): HastElement {
  const fold = foldLong ? foldText(source) : { folded: false as const };
  if (!fold.folded) return markdown(source);
  return el("div", undefined, [
    el("div", undefined, [markdown(fold.head)]),
    el("span", SHOW_MORE, [
      text("Show more "),
      el("span", SHOW_MORE_COUNT, [text(`(${hiddenLabel(fold)})`)]),
    ]),
  ]);
}

function toolPart(part: AnyToolPart): HastElement {
  const state = toolState(part);
  return el("div", TOOL_BOX, [
    disclosure("block", [
      el("span", TOOL_TITLE, [text(toolTitle(part))]),
      el("span", TOOL_KIND, [text(toolKind(part))]),
      el("span", `${TOOL_STATUS} ${TOOL_STATE[state.tone]}`, [
        ...(state.tone === "running"
          ? []
          : [el("span", undefined, [text(state.tone === "done" ? "✓" : "✕")])]),
        text(state.label),
      ]),
    ]),
  ]);
}

function noticeLine(data: Record<string, unknown>): HastElement {
  const view = noticeView(data);
  return el("div", `${NOTICE_BOX} ${NOTICE_TONE[view.tone]}`, [
    el("p", "break-words", [
      el("span", `font-semibold ${NOTICE_LABEL[view.tone]}`, [text(view.label)]),
      ...(view.title ? [el("span", undefined, [text(`: ${view.title}`)])] : []),
    ]),
    ...(view.description
      ? [el("p", "break-words whitespace-pre-wrap", [text(view.description)])]
      : []),
  ]);
}

function partTree(part: Part, foldLong: boolean): HastElement | undefined {
  switch (part.type) {
    case "text":
      return textPart(part.text, foldLong && part.state !== "streaming");
    case "reasoning":
      return el("div", "text-slate-600 dark:text-slate-300", [
        disclosure("muted", [text("Thinking")]),
      ]);
    case "data-compozy-event": {
      if (part.data.type === "notice") return noticeLine(part.data);
      if (part.data.type === "session.replay_carried") throw new Undrawable();
      const line = describeEvent(part.data);
      return line ? el("p", EVENT_LINE, [text(line)]) : undefined;
    }
    case "data-compozy-compaction":
    case "data-compozy-permission":
    case "file":
    case "unsupported":
      throw new Undrawable();
    default:
      return toolPart(part);
  }
}

function entryTree(entry: Entry, showSpeaker: boolean): HastElement {
  const { message } = entry;
  const label = showSpeaker ? SPEAKER_NAMES[speakerOf(message)] : undefined;
  const sender = message.role === "user" ? maintenanceSender(message.metadata) : undefined;
  const pinnable = message.role === "user" && !metadataFlag(message.metadata, "maintenance");
  const hasText = message.role !== "system" && messageText(message) !== "";
  const head =
    label || pinnable || hasText
      ? [
          el("div", "flex items-center gap-2", [
            ...(label ? [el("p", SPEAKER_LABEL, [text(sender ?? label)])] : []),
            el("span", "ml-auto inline-flex items-center gap-1.5", [
              ...(hasText ? [el("span", ROW_ACTION, [text("Copy")])] : []),
              ...(pinnable ? [el("span", ROW_ACTION, [text("☆ Keep this")])] : []),
            ]),
          ]),
        ]
      : [];
  const parts = message.parts.flatMap((part) => partTree(part, message.role === "assistant") ?? []);
  return el("div", `space-y-1.5 ${message.role === "user" ? USER_BUBBLE : ""}`, [
    ...head,
    ...parts,
  ]);
}

/**
 * The rows of the newest `entries`, oldest first, or undefined when one of them is a row
 * the first screen does not draw.
 */
export function firstScreenRows(entries: readonly Entry[]): HastElement[] | undefined {
  const lines = foldStateLines(entries);
  try {
    return entries.flatMap((entry, index) => {
      if (lines.folded.has(index)) return [];
      const line = lines.lines.get(index);
      const body = line
        ? el("p", EVENT_LINE, [text(line)])
        : entryTree(entry, showsSpeaker(entries, index));
      return [
        el("div", "w-full px-3 py-1.5 sm:px-4", [body], { dataFirstScreenEntry: String(index) }),
      ];
    });
  } catch (error) {
    if (error instanceof Undrawable) return undefined;
    throw error;
  }
}
