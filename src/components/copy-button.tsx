import { useEffect, useState } from "react";
import { ROW_ACTION } from "./looks";

type CopyState = "idle" | "copied" | "failed";

const SHOWN_MS = 2_000;

/**
 * "Copy" for a message or a code block: the visible word stays the same (its name is
 * "Copy message" / "Copy code"), and what happened is said beside it
 * in a live region for a moment. A page without the Clipboard API (plain http on another
 * host) says it could not.
 */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [state, setState] = useState<CopyState>("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () => {
    const clipboard = typeof navigator === "undefined" ? undefined : navigator.clipboard;
    if (!clipboard) {
      setState("failed");
      return;
    }
    clipboard.writeText(text).then(
      () => setState("copied"),
      () => setState("failed"),
    );
  };
  return (
    <span className="inline-flex items-center gap-1.5">
      <span role="status" className="text-[11px] text-slate-600 dark:text-slate-300">
        {state === "copied" ? "Copied" : state === "failed" ? "Couldn't copy" : ""}
      </span>
      <button
        type="button"
        // The visible word starts the name (WCAG 2.5.3); the rest says what is copied.
        aria-label={`Copy ${what}`}
        onClick={copy}
        className={ROW_ACTION}
      >
        Copy
      </button>
    </span>
  );
}
