import { type ComponentProps, useId } from "react";
import { DISCLOSURE } from "./row-looks";
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

const LOOKS = DISCLOSURE;

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
