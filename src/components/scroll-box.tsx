import type { ReactNode } from "react";

/**
 * A bounded box that scrolls, focusable so it can be scrolled without a mouse (WCAG 2.1.1;
 * axe `scrollable-region-focusable`).
 */
export function ScrollBox({
  className = "",
  children,
}: {
  className?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take keyboard focus to be scrolled.
    <div tabIndex={0} className={`overflow-auto ${className}`}>
      {children}
    </div>
  );
}
