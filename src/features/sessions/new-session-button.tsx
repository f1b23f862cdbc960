import { useQuery } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { useCreateSessionMutation } from "../../api/session-mutations";
import { workspaceQueries } from "../../api/session-queries";
import { Button } from "../../components/button";
import { Spinner } from "../../components/spinner";
import { requestFocus } from "../../lib/focus-request";
import { sessionHref } from "./session-sidebar-view";

/** Creates a session in the first workspace and opens it. */
export function NewSessionButton({ onCreated }: { onCreated: () => void }) {
  const workspaces = useQuery(workspaceQueries.list());
  const create = useCreateSessionMutation();
  const [, navigate] = useLocation();
  const workspace = workspaces.data?.workspaces[0];
  const problem = create.error?.message ?? workspaces.error?.message;
  return (
    <div>
      <Button
        tone="primary"
        className="w-full"
        disabled={!workspace || create.isPending}
        onClick={() => {
          if (!workspace) return;
          create.mutate(
            { workspace: workspace.id },
            {
              onSuccess: ({ session }) => {
                onCreated();
                // The button stays behind; the new session's message box is where to go next.
                requestFocus("composer");
                navigate(sessionHref(session));
              },
            },
          );
        }}
      >
        {create.isPending ? <Spinner /> : <span aria-hidden="true">+</span>}
        New session
      </Button>
      {problem ? (
        <p role="alert" className="mt-1 text-xs text-red-800 dark:text-red-300">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
