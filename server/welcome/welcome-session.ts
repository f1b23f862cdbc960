// On an empty data directory, a newcomer should see every feature at once. The welcome
// session is a short scripted conversation with the demo agent, sent through the real
// pipeline (agent process, ledger, stream): a few turns, one Compact now that completes
// with a summary, and one more turn so the meter shows a fresh reading after it.
import type { SessionHost } from "../acp/session-host";
import { DEMO_AGENT_NAME } from "../config/flags";
import type { SessionStore } from "../domain/session-recorder-api";

export const WELCOME_SESSION_NAME = "Welcome to Tideline";

type Step = { prompt: string } | { compact: true };

// `/help` first: the newcomer's first reply is the list of commands and demo scenarios.
// `/demo lossy` makes the compaction's summary keep only the goal, so opening "What the summary
// kept" on its row shows the compaction audit with real dropped items (issue 20).
const WELCOME_SCRIPT: readonly Step[] = [
  { prompt: "/help" },
  { prompt: "Add a context meter to src/features/context/meter.tsx" },
  { prompt: "/demo tools" },
  { prompt: "/demo fill 70" },
  { prompt: "/demo lossy" },
  { prompt: "Turn the meter red above 90 % and cover it in src/features/context/meter.test.tsx" },
  { compact: true },
  { prompt: "Wire the meter into the rail in src/features/context/rail.tsx" },
];

const STEP_TIMEOUT_MS = 5 * 60_000;

/** Resolves when `ready(session)` holds, re-checking on every change of the session. */
function waitFor(
  host: SessionHost,
  sessionId: string,
  ready: (session: ReturnType<SessionHost["getSession"]>) => boolean,
  what: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const session = host.getSession(sessionId);
      if (ready(session)) {
        finish();
        resolve();
      } else if (session.state === "stopped") {
        finish();
        reject(new Error(`welcome session stopped while waiting for ${what}`));
      }
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`welcome session: timed out waiting for ${what}`));
    }, STEP_TIMEOUT_MS);
    const unsubscribe = host.onSessionChanged((id) => {
      if (id === sessionId) check();
    });
    function finish() {
      clearTimeout(timer);
      unsubscribe();
    }
    check();
  });
}

/**
 * Creates and plays the welcome session when the ledger holds no session at all (so it
 * runs once per data directory). Returns its id, or undefined when there was nothing to do.
 */
export async function ensureWelcomeSession(deps: {
  host: SessionHost;
  store: SessionStore;
  workspaceId: string;
}): Promise<string | undefined> {
  const { host, store } = deps;
  if (store.listSessions({}).length > 0) return undefined;
  const session = host.createSession(deps.workspaceId, {
    agentName: DEMO_AGENT_NAME,
    name: WELCOME_SESSION_NAME,
  });
  const id = session.id;
  await waitFor(
    host,
    id,
    (s) => s.state === "active" && s.available_commands.length > 0,
    "the agent to start",
  );
  for (const [index, step] of WELCOME_SCRIPT.entries()) {
    if ("compact" in step) host.compact(id, undefined, "http");
    else {
      // Keys tied to the script step: a rerun of the same step can never send it twice.
      host.prompt(id, undefined, {
        text: step.prompt,
        messageId: `welcome-${index}`,
        idempotencyKey: `welcome-${id}-${index}`,
      });
    }
    await waitFor(host, id, (s) => s.activity?.turn_id === undefined, "the turn to end");
  }
  return id;
}
