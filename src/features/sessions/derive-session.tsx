import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useLocation } from "wouter";
import { type DeriveKind, deriveQueries, useDeriveSessionMutation } from "../../api/derive-queries";
import type { SessionRef } from "../../api/session-queries";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { DERIVE_TEXT, previewSummary } from "./derive-session-view";
import { sessionHref } from "./session-sidebar-view";

/**
 * Continue and Fork: each opens a panel that first shows what the new session's agent
 * would be sent (the daemon's preview), then starts it and opens it.
 */
export function DeriveSession({ session }: { session: SessionRef }) {
  const [kind, setKind] = useState<DeriveKind | null>(null);
  return (
    <section
      aria-label="Continue or fork"
      className="border-b border-slate-200 p-3 dark:border-slate-800"
    >
      <div className="flex gap-2">
        <Button size="sm" aria-expanded={kind === "continue"} onClick={() => setKind("continue")}>
          Continue…
        </Button>
        <Button size="sm" aria-expanded={kind === "fork"} onClick={() => setKind("fork")}>
          Fork…
        </Button>
      </div>
      {kind === null ? null : (
        <DerivePanel key={kind} session={session} kind={kind} onClose={() => setKind(null)} />
      )}
    </section>
  );
}

function DerivePanel({
  session,
  kind,
  onClose,
}: {
  session: SessionRef;
  kind: DeriveKind;
  onClose: () => void;
}) {
  const preview = useQuery(deriveQueries.preview(session));
  const derive = useDeriveSessionMutation(session);
  const [agent, setAgent] = useState("");
  const [, navigate] = useLocation();
  const agentId = useId();
  const text = DERIVE_TEXT[kind];
  return (
    <fieldset className="mt-2 space-y-2 text-sm">
      <legend className="font-semibold">{text.title}</legend>
      {preview.isPending ? (
        <p className="flex items-center gap-2 text-slate-600 dark:text-slate-300">
          <Spinner /> Reading what the new session would carry…
        </p>
      ) : preview.isError ? (
        <p role="alert" className="text-red-800 dark:text-red-300">
          {preview.error.message}
        </p>
      ) : (
        <p>{previewSummary(preview.data)}</p>
      )}
      <p className="text-slate-600 dark:text-slate-300">{text.effect}</p>
      <div>
        <label htmlFor={agentId} className="block text-xs font-medium">
          Agent (empty: the same agent)
        </label>
        <input
          id={agentId}
          value={agent}
          onChange={(event) => setAgent(event.target.value)}
          className="mt-0.5 w-full rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-900"
        />
      </div>
      {derive.error ? (
        <p role="alert" className="text-red-800 dark:text-red-300">
          {derive.error.message}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button
          tone="primary"
          size="sm"
          disabled={!preview.isSuccess || derive.isPending}
          onClick={() =>
            derive.mutate(
              { kind, body: agent.trim() === "" ? {} : { agent_name: agent.trim() } },
              { onSuccess: ({ session: created }) => navigate(sessionHref(created)) },
            )
          }
        >
          {derive.isPending ? <Spinner /> : null}
          {text.start}
        </Button>
        <Button size="sm" tone="ghost" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}
