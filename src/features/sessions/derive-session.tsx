import { useQuery } from "@tanstack/react-query";
import { Suspense, useRef, useState } from "react";
import type { DeriveKind } from "../../api/derive-queries";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { lazyAfterPaint } from "../../lib/lazy-after-paint";

const DerivePanel = lazyAfterPaint(() =>
  import("./derive-panel").then((module) => module.DerivePanel),
);

/**
 * Continue and Fork: each opens a panel that first shows what the new session's agent
 * would be sent (the daemon's preview), then starts it and opens it. The panel takes focus
 * when it opens; Escape or Cancel closes it and gives focus back to the button.
 */
export function DeriveSession({ session }: { session: SessionRef }) {
  const [kind, setKind] = useState<DeriveKind | null>(null);
  const detail = useQuery(sessionQueries.detail(session));
  const continued = detail.data?.derivation?.continued_in !== undefined;
  const continueButton = useRef<HTMLButtonElement>(null);
  const forkButton = useRef<HTMLButtonElement>(null);
  const close = () => {
    const opener = kind === "continue" ? continueButton.current : forkButton.current;
    setKind(null);
    opener?.focus();
  };
  return (
    <section
      aria-label="Continue or fork"
      className="border-b border-slate-200 p-3 dark:border-slate-800"
    >
      <div className="flex gap-2">
        {continued ? null : (
          <Button
            ref={continueButton}
            size="sm"
            aria-expanded={kind === "continue"}
            onClick={() => setKind("continue")}
          >
            Continue…
          </Button>
        )}
        <Button
          ref={forkButton}
          size="sm"
          aria-expanded={kind === "fork"}
          onClick={() => setKind("fork")}
        >
          Fork…
        </Button>
      </div>
      {kind === null ? null : (
        <Suspense fallback={<Spinner />}>
          <DerivePanel key={kind} session={session} kind={kind} onClose={close} />
        </Suspense>
      )}
    </section>
  );
}
