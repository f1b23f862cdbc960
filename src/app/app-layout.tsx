import type { ReactNode } from "react";
import { SessionSidebar } from "../features/sessions/session-sidebar";

/** Sidebar beside the page on wide screens; above it, collapsible, on narrow ones. */
export function AppLayout({
  activeSessionId,
  children,
}: {
  activeSessionId?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex h-full flex-col lg:flex-row">
      <SessionSidebar {...(activeSessionId ? { activeSessionId } : {})} />
      <div className="flex min-h-0 min-w-0 flex-1 flex-col">{children}</div>
    </div>
  );
}
