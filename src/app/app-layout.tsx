import type { ReactNode } from "react";
import { useSessionNotifications } from "../features/notifications/use-session-notifications";
import { PreferencesButton } from "../features/preferences/preferences-dialog";
import { ShortcutsHelp } from "../features/preferences/shortcuts-help";
import { SessionSidebar } from "../features/sessions/session-sidebar";
import { COMPOSER_INPUT_ID } from "../lib/focus-request";

/** Sidebar beside the page on wide screens; above it, collapsible, on narrow ones. */
export function AppLayout({
  activeSessionId,
  children,
}: {
  activeSessionId?: string;
  children: ReactNode;
}) {
  useSessionNotifications(activeSessionId);
  return (
    <div className="flex h-full flex-col lg:flex-row">
      {activeSessionId ? <SkipToComposer /> : null}
      <SessionSidebar
        {...(activeSessionId ? { activeSessionId } : {})}
        actions={<PreferencesButton />}
      />
      <ShortcutsHelp />
      <div className="flex min-h-0 min-w-0 flex-1 flex-col">{children}</div>
    </div>
  );
}

/**
 * The first Tab stop: straight to the message box, past the session list. Focus is moved
 * by hand: following the fragment would replace a `#token=` still in the address.
 */
function SkipToComposer() {
  return (
    <a
      href={`#${COMPOSER_INPUT_ID}`}
      onClick={(event) => {
        const target = document.getElementById(COMPOSER_INPUT_ID);
        if (!target) return;
        event.preventDefault();
        target.focus();
      }}
      className="sr-only z-50 rounded-md bg-cyan-700 px-3 py-2 text-sm font-medium text-white focus:not-sr-only focus:absolute focus:top-2 focus:left-2 dark:bg-cyan-400 dark:text-slate-950"
    >
      Skip to the message box
    </a>
  );
}
