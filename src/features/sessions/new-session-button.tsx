import { useQuery } from "@tanstack/react-query";
import { Suspense, useState } from "react";
import { useLocation } from "wouter";
import { agentSessionQueries } from "../../api/agent-session-queries";
import { refusalText } from "../../api/refusal-words";
import { useCreateSessionMutation } from "../../api/session-mutations";
import { workspaceQueries } from "../../api/session-queries";
import { isMissingEndpoint } from "../../api/usage-queries";
import { Button } from "../../components/button";
import { requestFocus } from "../../lib/focus-request";
import { lazyAfterPaint } from "../../lib/lazy-after-paint";
import { agentsProblem } from "./new-session-dialog-view";
import { sessionHref } from "./session-sidebar-view";

/** The dialog is a chunk of its own, fetched after the first paint (ADR 0211). */
const NewSessionDialog = lazyAfterPaint(() =>
  import("./new-session-dialog").then((module) => module.NewSessionDialog),
);

/** Opens the New session dialog; the created session opens with focus in its message box. */
export function NewSessionButton({ onCreated }: { onCreated: () => void }) {
  const [open, setOpen] = useState(false);
  const [round, setRound] = useState(0);
  const workspaces = useQuery(workspaceQueries.list());
  const agents = useQuery({
    ...agentSessionQueries.agents(),
    enabled: open,
    select: (data) =>
      data.agents.map((agent) => ({
        name: agent.name,
        isDefault: agent.default,
        preset: agent.preset,
      })),
  });
  const create = useCreateSessionMutation();
  const [, navigate] = useLocation();
  const workspace = workspaces.data?.workspaces[0];
  // A closed modal dialog gives focus back to the button that opened it.
  const close = () => {
    setOpen(false);
    create.reset();
  };
  return (
    <div>
      <Button
        tone="primary"
        className="w-full"
        disabled={!workspace}
        aria-haspopup="dialog"
        onClick={() => {
          setRound(round + 1);
          setOpen(true);
        }}
      >
        <span aria-hidden="true">+</span>
        New session
      </Button>
      {workspaces.error ? (
        <p role="alert" className="mt-1 text-xs text-red-800 dark:text-red-300">
          {refusalText(workspaces.error)}
        </p>
      ) : null}
      <Suspense fallback={null}>
        <NewSessionDialog
          // A fresh form each time it opens.
          key={round}
          open={open}
          // A daemon without `GET /api/agents` (CompozyOS) lists none: its default is used.
          agents={isMissingEndpoint(agents.error) ? [] : agents.data}
          agentsError={
            isMissingEndpoint(agents.error) || !agents.error
              ? undefined
              : agentsProblem(agents.error)
          }
          creating={create.isPending}
          error={create.error ? refusalText(create.error) : undefined}
          onClose={close}
          onCreate={(request) => {
            if (!workspace) return;
            create.mutate(
              { workspace: workspace.id, ...request },
              {
                onSuccess: ({ session }) => {
                  setOpen(false);
                  onCreated();
                  requestFocus("composer");
                  navigate(sessionHref(session));
                },
              },
            );
          }}
        />
      </Suspense>
    </div>
  );
}
