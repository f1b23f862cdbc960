import { type RefObject, useId, useRef, useState } from "react";
import { Button } from "../../components/button";
import { ModalDialog } from "../../components/modal-dialog";
import {
  NOTIFICATION_KINDS,
  type NotificationKind,
  THEMES,
  type Theme,
  usePreferences,
} from "../../lib/preferences";

const THEME_LABELS: Readonly<Record<Theme, string>> = {
  system: "System",
  light: "Light",
  dark: "Dark",
};

const KIND_LABELS: Readonly<Record<NotificationKind, string>> = {
  approval: "An approval is waiting",
  turn: "A turn finished",
  compaction: "A compaction finished or failed",
  crash: "An agent crashed",
};

/**
 * Settings, from the sidebar's top row (ADR 0241): the theme, remembered per browser, and
 * notifications. Desktop notifications are asked for only when the person turns them on
 * here; a browser that blocks them says so in place.
 */
export function PreferencesButton() {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const close = () => setOpen(false);
  return (
    <>
      <Button
        ref={trigger}
        size="sm"
        tone="ghost"
        className="min-h-6"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Settings
      </Button>
      <PreferencesDialog open={open} onClose={close} returnFocus={trigger} />
    </>
  );
}

function PreferencesDialog({
  open,
  onClose,
  returnFocus,
}: {
  open: boolean;
  onClose: () => void;
  returnFocus: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <ModalDialog open={open} onClose={onClose} title="Settings" returnFocus={returnFocus}>
      <ThemeChoice />
      <NotificationChoices />
      <div className="flex justify-end">
        <Button onClick={onClose}>Done</Button>
      </div>
    </ModalDialog>
  );
}

function ThemeChoice() {
  const theme = usePreferences((state) => state.theme);
  const setTheme = usePreferences((state) => state.setTheme);
  const name = useId();
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-semibold">Theme</legend>
      <div className="flex flex-wrap gap-3">
        {THEMES.map((value) => (
          <label key={value} className="inline-flex min-h-6 items-center gap-1.5 text-sm">
            <input
              type="radio"
              name={name}
              value={value}
              checked={theme === value}
              onChange={() => setTheme(value)}
            />
            {THEME_LABELS[value]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function NotificationChoices() {
  const desktop = usePreferences((state) => state.desktop);
  const kinds = usePreferences((state) => state.kinds);
  const setDesktop = usePreferences((state) => state.setDesktop);
  const setKind = usePreferences((state) => state.setKind);
  const [refusal, setRefusal] = useState<string | undefined>();
  const noteId = useId();
  const turnOn = async (on: boolean) => {
    setRefusal(undefined);
    if (!on) return setDesktop(false);
    if (typeof Notification === "undefined") {
      return setRefusal("This browser has no desktop notifications.");
    }
    const permission =
      Notification.permission === "default"
        ? await Notification.requestPermission()
        : Notification.permission;
    if (permission === "granted") return setDesktop(true);
    setRefusal(
      "The browser blocks notifications for this page: allow them in its site settings, then try again.",
    );
  };
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-semibold">Notifications</legend>
      <p id={noteId} className="text-xs text-slate-600 dark:text-slate-300">
        When this tab is hidden or another session is open, the tab's title and icon count what is
        waiting.
      </p>
      <label className="flex min-h-6 items-center gap-1.5 text-sm">
        <input
          type="checkbox"
          checked={desktop}
          aria-describedby={noteId}
          onChange={(event) => void turnOn(event.currentTarget.checked)}
        />
        Desktop notifications
      </label>
      {refusal ? (
        <p role="alert" className="text-xs text-red-800 dark:text-red-300">
          {refusal}
        </p>
      ) : null}
      <ul className="space-y-0.5 pl-5">
        {NOTIFICATION_KINDS.map((kind) => (
          <li key={kind}>
            <label className="flex min-h-6 items-center gap-1.5 text-sm">
              <input
                type="checkbox"
                checked={kinds[kind]}
                onChange={(event) => setKind(kind, event.currentTarget.checked)}
              />
              {KIND_LABELS[kind]}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
