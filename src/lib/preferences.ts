// What this browser remembers of the person's choices (ADR 0241): the colour theme and which
// notifications they want. Kept in localStorage; a stored value that does not parse (an old
// build's, a hand-edited one) falls back to the defaults field by field, never to an error.

import { create } from "zustand";
import { THEME_COOKIE } from "../contract/first-paint";
import { z } from "../contract/zod";

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export const NOTIFICATION_KINDS = ["approval", "turn", "compaction", "crash"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

const STORAGE_KEY = "tideline.preferences";

const Stored = z.object({
  theme: z.catch(z.enum(THEMES), "system"),
  /** Desktop notifications: off until the person turns them on (never asked on load). */
  desktop: z.catch(z.boolean(), false),
  kinds: z.catch(
    z.object({
      approval: z.catch(z.boolean(), true),
      turn: z.catch(z.boolean(), true),
      compaction: z.catch(z.boolean(), true),
      crash: z.catch(z.boolean(), true),
    }),
    { approval: true, turn: true, compaction: true, crash: true },
  ),
});
export type Preferences = z.infer<typeof Stored>;

export function readPreferences(raw: string | null): Preferences {
  let value: unknown = {};
  try {
    value = raw === null ? {} : JSON.parse(raw);
  } catch {
    value = {};
  }
  const parsed = Stored.safeParse(value && typeof value === "object" ? value : {});
  return parsed.success ? parsed.data : Stored.parse({});
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    // A browser that refuses storage (a locked-down profile) still gets a working page.
    return undefined;
  }
}

type PreferencesState = Preferences & {
  setTheme(theme: Theme): void;
  setDesktop(on: boolean): void;
  setKind(kind: NotificationKind, on: boolean): void;
};

export const usePreferences = create<PreferencesState>()((set, get) => {
  const save = () => {
    const { theme, desktop, kinds } = get();
    try {
      storage()?.setItem(STORAGE_KEY, JSON.stringify({ theme, desktop, kinds }));
    } catch {
      // Full or refused storage: the choice holds for this page only.
    }
  };
  return {
    ...readPreferences(storage()?.getItem(STORAGE_KEY) ?? null),
    setTheme: (theme) => {
      set({ theme });
      applyTheme(theme);
      save();
    },
    setDesktop: (desktop) => {
      set({ desktop });
      save();
    },
    setKind: (kind, on) => {
      set({ kinds: { ...get().kinds, [kind]: on } });
      save();
    },
  };
});

/**
 * The theme on the root element: `data-theme` for a forced one, none for the system's. The
 * stylesheet's `dark` variant reads it (styles.css), so "system" follows the OS live.
 */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement) {
  if (theme === "system") delete root.dataset.theme;
  else root.dataset.theme = theme;
  root.style.colorScheme = theme === "system" ? "" : theme;
  // The daemon draws a session link's first screen before this runs: it reads the cookie.
  // biome-ignore lint/suspicious/noDocumentCookie: one fixed cookie; the Cookie Store API is not in every browser the SPA supports.
  document.cookie =
    theme === "system"
      ? `${THEME_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict`
      : `${THEME_COOKIE}=${theme}; Path=/; Max-Age=31536000; SameSite=Strict`;
}
