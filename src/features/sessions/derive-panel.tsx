import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { useLocation } from "wouter";
import { agentSessionQueries } from "../../api/agent-session-queries";
import { type DeriveKind, deriveQueries, useDeriveSessionMutation } from "../../api/derive-queries";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { DERIVE_TEXT, deriveBody, previewSummary, suggestedName } from "./derive-session-view";
import { agentLabel } from "./new-session-dialog-view";
import { headerTitle } from "./session-header-view";
import { sessionHref } from "./session-sidebar-view";

/**
 * The Continue or Fork panel: the daemon's preview of what the new session's agent would be
 * sent, its name and agent, and Start. A chunk of its own, loaded after the first paint.
 */
export function DerivePanel({
  session,
  kind,
  onClose,
}: {
  session: SessionRef;
  kind: DeriveKind;
  onClose: () => void;
}) {
  const preview = useQuery(deriveQueries.preview(session));
  const agents = useQuery(agentSessionQueries.agents());
  const source = useQuery(sessionQueries.detail(session)).data;
  const derive = useDeriveSessionMutation(session);
  const [agent, setAgent] = useState<string | undefined>(undefined);
  const [name, setName] = useState<string | undefined>(undefined);
  const [, navigate] = useLocation();
  const panel = useRef<HTMLFieldSetElement>(null);
  const agentId = useId();
  const nameId = useId();
  const text = DERIVE_TEXT[kind];
  const chosenAgent = agent ?? source?.agent_name ?? "";
  const shownName = name ?? suggestedName(headerTitle(source), kind);
  useEffect(() => panel.current?.focus(), []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    // Handled here: Escape must not also stop a running turn.
    event.preventDefault();
    event.stopPropagation();
    onClose();
  };
  const fieldClass =
    "mt-0.5 w-full rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-900";
  return (
    <fieldset
      ref={panel}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      className="mt-2 space-y-2 rounded text-sm focus-visible:outline-2"
    >
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
        <label htmlFor={nameId} className="block text-xs font-medium">
          Name
        </label>
        <input
          id={nameId}
          value={shownName}
          maxLength={200}
          onChange={(event) => setName(event.target.value)}
          className={fieldClass}
        />
      </div>
      <div>
        <label htmlFor={agentId} className="block text-xs font-medium">
          Agent
        </label>
        {agents.isError ? (
          <p role="alert" className="text-xs text-red-800 dark:text-red-300">
            Couldn't load the agents ({agents.error.message}): the new session keeps this session's
            agent.
          </p>
        ) : (
          <select
            id={agentId}
            value={chosenAgent}
            disabled={agents.isPending}
            onChange={(event) => setAgent(event.target.value)}
            className={fieldClass}
          >
            {(agents.data?.agents ?? []).map((choice) => (
              <option key={choice.name} value={choice.name}>
                {agentLabel({
                  name: choice.name,
                  isDefault: choice.default,
                  preset: choice.preset,
                })}
                {choice.name === source?.agent_name ? " (this session's)" : ""}
              </option>
            ))}
            {agents.data?.agents.some((choice) => choice.name === chosenAgent) !== false ? null : (
              <option value={chosenAgent}>{chosenAgent} (this session's)</option>
            )}
          </select>
        )}
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
              { kind, body: deriveBody(chosenAgent, source?.agent_name, shownName) },
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
