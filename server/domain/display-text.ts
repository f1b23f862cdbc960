// Names shown to people (session names, an agent's title) must not carry what rewrites a
// terminal or a page's reading order: C0/C1 controls (ESC sequences, OSC 8 links) and the
// Unicode bidi overrides and isolates (a "Trojan Source" name that reads differently than
// it sorts). Line breaks and tabs become one space; everything else of that kind is removed.

// Line-like controls: CR, LF, tab, vertical tab, form feed, NEL, line and paragraph separator.
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/gu;
// Every other C0 and C1 control, DEL, and the bidi embeddings, overrides, isolates and marks.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

export function cleanDisplayText(text: string): string {
  return text.replace(BREAKS, " ").replace(HIDDEN, "").replace(/ {2,}/g, " ").trim();
}
