import { type ComponentProps, useId } from "react";
import { useItemOpen, useTimelineActions } from "./timeline-store";

/**
 * The timeline's one disclosure: open or not is kept in the timeline store by `itemKey`,
 * so a row scrolled out of the virtual window and back opens as it was.
 */
export function useTimelineDisclosure(itemKey: string) {
  const open = useItemOpen(itemKey);
  const { openItem, closeItem } = useTimelineActions();
  const panelId = useId();
  return {
    open,
    panelId,
    toggle: () => (open ? closeItem(itemKey) : openItem(itemKey)),
  };
}

const LOOKS = {
  /** The compaction row's disclosures (Summary, What the summary kept, Compare). */
  row: "inline-flex min-h-6 items-center gap-1 rounded text-xs font-medium text-slate-700 underline-offset-2 hover:underline dark:text-slate-200",
  /** A quieter one inside a message (Thinking). */
  muted: "inline-flex items-center gap-1 rounded text-xs font-medium italic hover:underline",
  /** A link-coloured one (what a continued session carried). */
  link: "inline-flex items-center gap-1 rounded text-xs font-medium text-cyan-800 hover:underline dark:text-cyan-300",
  /** A whole-width header (a tool call's row); its content lays itself out. */
  block:
    "flex w-full min-w-0 items-center gap-2 rounded-md px-2 py-1 text-left hover:bg-slate-50 dark:hover:bg-slate-900",
} as const;

/** The button of a disclosure: `▸` turning to point down, `aria-expanded`/`aria-controls`. */
export function DisclosureButton({
  open,
  panelId,
  look = "row",
  className = "",
  children,
  ...props
}: Omit<ComponentProps<"button">, "type" | "aria-expanded" | "aria-controls"> & {
  open: boolean;
  panelId: string;
  look?: keyof typeof LOOKS;
}) {
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-controls={panelId}
      className={`${LOOKS[look]} ${className}`}
      {...props}
    >
      <span aria-hidden="true" className={`transition-transform ${open ? "rotate-90" : ""}`}>
        ▸
      </span>
      {children}
    </button>
  );
}
