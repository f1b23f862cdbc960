// What an adapter's notice row says (ADR 0090 stores it as `notice`: severity, title,
// description). The title alone can be "Claude reported a warning": the description is the
// warning, so the row shows both. The daemon cuts a long one-line notice's title and keeps
// the whole text as the description; then the text is shown once, not twice.
type NoticeData = Record<string, unknown>;

export type NoticeTone = "error" | "warning" | "info";

export type NoticeView = {
  tone: NoticeTone;
  /** "Warning", "Error", "Notice": said first, so the severity is not colour alone. */
  label: string;
  title: string | undefined;
  description: string | undefined;
};

const LABELS: Record<NoticeTone, string> = { error: "Error", warning: "Warning", info: "Notice" };

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

function toneOf(severity: unknown): NoticeTone {
  const value = typeof severity === "string" ? severity.toLowerCase() : "";
  if (value === "error" || value === "fatal" || value === "critical") return "error";
  if (value === "warning" || value === "warn") return "warning";
  return "info";
}

/** Drops a leading "Warning:" the label already says. */
function withoutLabel(value: string | undefined, label: string): string | undefined {
  if (value === undefined) return undefined;
  const stripped = value.replace(new RegExp(`^${label}:\\s*`, "i"), "");
  return stripped === "" ? undefined : stripped;
}

export function noticeView(data: NoticeData): NoticeView {
  const tone = toneOf(data.severity);
  const label = LABELS[tone];
  let title = text(data.title);
  const description = text(data.description) ?? text(data.text);
  // A cut title is the description's start: show the whole text once.
  if (title?.endsWith("…") && description?.startsWith(title.slice(0, -1))) title = undefined;
  if (title !== undefined && title === description) title = undefined;
  return {
    tone,
    label,
    title: withoutLabel(title, label),
    description: title === undefined ? withoutLabel(description, label) : description,
  };
}
