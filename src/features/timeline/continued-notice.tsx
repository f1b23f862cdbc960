import { Link } from "wouter";
import type { SessionRef } from "../../api/session-queries";
import type { Session } from "../../contract/session";
import { COMPOSER_INPUT_ID } from "../../lib/focus-request";
import { sessionPathOf } from "../../lib/session-path";

/**
 * In place of the message box on a continued session (ADR 0136): it is read-only, and the
 * conversation goes on in its successor. Forking it is how to take it another way.
 */
export function ContinuedNotice({ session, detail }: { session: SessionRef; detail: Session }) {
  const successor = detail.derivation?.continued_in ?? "";
  const link = detail.derivation?.derived.find((item) => item.session_id === successor);
  return (
    <div className="border-t border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-950">
      {/* The skip link's target: the place where the message box would be. */}
      <p
        id={COMPOSER_INPUT_ID}
        tabIndex={-1}
        className="mx-auto max-w-3xl rounded-md border border-slate-300 bg-slate-50 p-3 text-sm text-slate-800 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-200"
      >
        This session was continued in{" "}
        <Link
          href={sessionPathOf(session.workspaceId, successor)}
          className="font-medium text-cyan-800 underline dark:text-cyan-300"
        >
          {link?.name ?? "a new session"}
        </Link>
        , so it is read-only: send there to go on, or fork this one to take it another way.
      </p>
    </div>
  );
}
