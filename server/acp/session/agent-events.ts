// What a running agent says, into the ledger: the AgentEvents a session's process reports
// to, each recorded against the session's current turn (a replayed frame against none),
// with the change signal raised when a row changes what the session view shows.
import type { SessionRecord } from "../../domain/session-recorder-api";
import type { AgentEvents } from "../agent-process";
import type { PermissionBroker } from "../permission-broker";
import { completionOf } from "../prompt-completion";
import type { HostContext, Runtime } from "./host-context";

/** Rows that change what a session view shows (commands, title, modes, options, model). */
const SESSION_FIELD_ROWS: ReadonlySet<string> = new Set([
  "available_commands",
  "session.title",
  "session.mode",
  "session.modes",
  "session.config_options",
  "usage",
]);

/** What the agent says, recorded against the session's current turn. */
export function agentEventsOf(
  ctx: HostContext,
  permissions: PermissionBroker,
  session: SessionRecord,
  runtime: Runtime,
  exited: AgentEvents["exited"],
): AgentEvents {
  const { recorder, record, log } = ctx;
  const id = session.id;
  const turnId = () => runtime.turn?.id ?? null;
  return {
    batch: (slice) => recorder.batch(slice),
    update: (update, line, replayed) => {
      // A replayed frame is history, not part of a turn that may already be claimed.
      const turn = replayed ? null : turnId();
      const rows = record(id, "session/update", () =>
        recorder.recordUpdate(id, turn, update, line),
      );
      if (rows.some((row) => SESSION_FIELD_ROWS.has(row.type))) ctx.changed(id);
    },
    extension: (method, params) => {
      record(id, "agent.extension", () => recorder.recordExtension(id, turnId(), method, params));
    },
    invalidFrame: (raw, error) => {
      record(id, "agent.invalid_frame", () =>
        recorder.recordInvalidFrame(id, turnId(), raw, error),
      );
    },
    promptAnswered: (outcome) => {
      const turn = runtime.turn;
      if (turn === undefined) return;
      if (!outcome.ok) log(`[${id}] session/prompt failed: ${outcome.error}`);
      record(id, "prompt.completed", () =>
        recorder.recordPromptCompleted(id, turn.id, completionOf(outcome)),
      );
      runtime.turn = undefined;
      ctx.changed(id);
    },
    permission: (request) => permissions.request(id, turnId(), request),
    exited,
    stderr: (line) => log(`[agent ${id}] ${line}`),
  };
}
