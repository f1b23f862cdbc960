import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { type AgentChoice, agentLabel, createBody, initialAgent } from "./new-session-dialog-view";

export type NewSessionRequest = ReturnType<typeof createBody>;

/**
 * The New session dialog (a modal `<dialog>`: Escape and Cancel close it, focus returns to
 * the button that opened it): pick one of the configured agents, optionally name it.
 */
export function NewSessionDialog({
  open,
  agents,
  agentsError,
  creating,
  error,
  onCreate,
  onClose,
}: {
  open: boolean;
  agents: readonly AgentChoice[] | undefined;
  agentsError: string | undefined;
  creating: boolean;
  error: string | undefined;
  onCreate: (request: NewSessionRequest) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const nameId = useId();
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const [name, setName] = useState("");
  const agent = picked ?? initialAgent(agents ?? []);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      // jsdom has no showModal: the dialog is then simply open (not modal).
      if (typeof element.showModal === "function") element.showModal();
      else element.setAttribute("open", "");
    } else if (!open && element.open) {
      if (typeof element.close === "function") element.close();
      else element.removeAttribute("open");
    }
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (creating || (agents === undefined && agentsError === undefined)) return;
    onCreate(createBody(agent, name));
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-slate-300 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
    >
      {open ? (
        <form onSubmit={submit} className="space-y-4 p-4">
          <h2 id={titleId} className="text-base font-semibold">
            New session
          </h2>
          {agentsError ? (
            <p role="alert" className="text-sm text-red-800 dark:text-red-300">
              {agentsError}
            </p>
          ) : agents === undefined ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">Loading agents…</p>
          ) : agents.length === 0 ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              This daemon lists no agents: the session starts with its default agent.
            </p>
          ) : (
            <fieldset className="space-y-1">
              <legend className="text-sm font-medium">Agent</legend>
              {agents.map((choice) => (
                <label
                  key={choice.name}
                  className="flex items-center gap-2 rounded-md px-2 py-1 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
                >
                  <input
                    type="radio"
                    name="agent"
                    value={choice.name}
                    checked={agent === choice.name}
                    onChange={() => setPicked(choice.name)}
                  />
                  <span>{agentLabel(choice)}</span>
                  {choice.isDefault ? (
                    <span className="text-xs text-slate-600 dark:text-slate-400">(default)</span>
                  ) : null}
                </label>
              ))}
            </fieldset>
          )}
          <div className="space-y-1">
            <label htmlFor={nameId} className="block text-sm font-medium">
              Name{" "}
              <span className="font-normal text-slate-600 dark:text-slate-400">(optional)</span>
            </label>
            <input
              id={nameId}
              value={name}
              maxLength={200}
              onChange={(event) => setName(event.target.value)}
              className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-950"
            />
          </div>
          {error ? (
            <p role="alert" className="text-sm text-red-800 dark:text-red-300">
              {error}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button onClick={onClose}>Cancel</Button>
            <Button
              type="submit"
              tone="primary"
              disabled={creating || (agents === undefined && agentsError === undefined)}
              aria-busy={creating}
            >
              {creating ? <Spinner /> : null}
              Create session
            </Button>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}
