import { useQuery } from "@tanstack/react-query";
import { pinQueries, usePinMutation } from "../../api/pin-queries";
import type { SessionRef } from "../../api/session-queries";
import { useTimelineSession } from "./timeline-session";

/**
 * "Keep this" on a message of the person: a toggle (its name stays, `aria-pressed` says
 * the state) with a visible "Pinned" beside it once pinned. Every later compaction's audit
 * checks its summary against pinned messages. Nothing renders where pins cannot persist
 * (no session, or a daemon without the route).
 */
export function PinToggle({ entryId }: { entryId: string }) {
  const session = useTimelineSession();
  return session ? <SessionPinToggle session={session} entryId={entryId} /> : null;
}

function SessionPinToggle({ session, entryId }: { session: SessionRef; entryId: string }) {
  const pinned = useQuery({
    ...pinQueries.list(session),
    select: (pins) => (pins === null ? undefined : pins.has(entryId)),
  });
  const toggle = usePinMutation(session);
  if (pinned.data === undefined) return null;
  const isPinned = pinned.data;
  return (
    <span className="inline-flex items-center gap-1.5">
      {isPinned ? (
        <span className="rounded bg-amber-100 px-1.5 py-px text-[11px] font-semibold text-amber-900 dark:bg-amber-900/60 dark:text-amber-100">
          Pinned
        </span>
      ) : null}
      <button
        type="button"
        aria-pressed={isPinned}
        onClick={() => toggle.mutate({ entryId, pinned: !isPinned })}
        title={
          isPinned
            ? "Pinned: every compaction is checked for it. Press to unpin."
            : "Pin it: every compaction is checked for it, and Remind the agent offers it back."
        }
        className="inline-flex min-h-6 items-center rounded px-1.5 text-[11px] font-medium text-slate-700 underline-offset-2 hover:underline aria-pressed:text-amber-900 dark:text-slate-300 dark:aria-pressed:text-amber-200"
      >
        <span aria-hidden="true">{isPinned ? "★ " : "☆ "}</span>
        Keep this
      </button>
      {toggle.isError ? (
        <span role="alert" className="text-[11px] text-red-800 dark:text-red-300">
          {isPinned ? "Couldn't unpin" : "Couldn't pin"}: {toggle.error.message}
        </span>
      ) : null}
    </span>
  );
}
