// The wire view: a session as CompozyOS sends it, every always-present field included,
// from its stored record, its settings and (while it runs) its runtime.

import type { DaemonSession } from "../../../src/contract/session";
import { cleanDisplayText } from "../../domain/display-text";
import type { SessionRecord } from "../../domain/session-recorder-api";
import type { HostContext } from "./host-context";
import { activityOf, badgeOf } from "./session-badge";
import { lineageOf, shownNameOf } from "./session-lineage";

/** What the view needs of the permission broker. */
export type PendingInteractions = {
  pendingOf(sessionId: string): DaemonSession["pending_interactions"];
};

export type SessionView = (
  record: SessionRecord,
  options?: { commands?: boolean },
) => DaemonSession;

/** CompozyOS's `stop_reason` for the daemon's own stop reasons (the text is `stop_detail`). */
function stopReasonOf(reason: string | undefined): DaemonSession["stop_reason"] {
  if (reason === undefined) return undefined;
  if (reason === "stopped by request") return "user_canceled";
  if (reason === "daemon stopped" || reason === "daemon restarted") return "shutdown";
  if (reason.startsWith("agent exited")) return "agent_crashed";
  return "error";
}

/**
 * The list leaves out the commands (ADR 0092), modes and config options; the name is the
 * user's, else the agent's title (ADR 0090).
 */
export function createSessionView(ctx: HostContext, permissions: PendingInteractions): SessionView {
  const { reader, store } = ctx;
  return function view(record, options = {}) {
    const runtime = ctx.runtimes.get(record.id);
    const settings = reader.sessionSettings(record.id);
    const turn = runtime?.turn;
    const last = runtime === undefined ? reader.lastState(record.id) : undefined;
    const state = runtime?.state ?? last?.state ?? "stopped";
    const brief = options.commands === false;
    const pending = permissions.pendingOf(record.id);
    const reason =
      state === "stopped" ? (last?.reason ?? reader.lastState(record.id).reason) : undefined;
    const stopReason = stopReasonOf(reason);
    const session: DaemonSession = {
      id: record.id,
      workspace_id: record.workspace_id,
      agent_name: record.agent_name,
      // Every session here is started by a person (the API, the SPA or the CLI).
      type: "user",
      state,
      available_commands: brief ? [] : reader.availableCommands(record.id),
      archived_at: record.archived_at ?? null,
      // Tideline has no attach locks: no session can be attached (docs/contract.md).
      attachable: false,
      badge: badgeOf({
        state,
        stopReason,
        pendingApprovals: pending.length,
        turnRunning: turn !== undefined,
      }),
      pending_interactions: pending,
      runtime: {
        status: state === "active" ? "ready" : state,
        // No runtime selection is offered, so it was never revised.
        selection_revision: 0,
        ...(runtime?.acpSessionId === undefined ? {} : { acp_session_id: runtime.acpSessionId }),
        ...(runtime?.supportsLoad === undefined
          ? {}
          : { acp_caps: { supports_load_session: runtime.supportsLoad } }),
      },
      transcript_epoch: reader.historyVersion(record.id).epoch,
      // Modes and options are a few KB for Claude: the detail carries them, the list not.
      ...(settings.modes === undefined || brief ? {} : { modes: settings.modes }),
      ...(settings.config_options === undefined || brief
        ? {}
        : { config_options: settings.config_options }),
      ...(settings.model === undefined ? {} : { model: settings.model }),
      created_at: record.created_at,
      updated_at: record.updated_at,
    };
    const workspace = store.getWorkspace(record.workspace_id);
    if (workspace !== undefined) session.workspace_path = workspace.root_dir;
    // The user's name wins; else the agent's title (`session_info_update`, ADR 0090).
    // Cleaned here too: an agent's title (and a name stored before names were cleaned)
    // must not carry terminal escapes or bidi overrides to any client.
    const name = record.name ?? (settings.title ? settings.title : undefined);
    const shown = name === undefined ? "" : cleanDisplayText(name);
    if (shown !== "") session.name = shown;
    if (!brief) {
      const nameOf = (id: string) => {
        const linked = shownNameOf(store, reader, id);
        return typeof linked === "string" ? cleanDisplayText(linked) || undefined : linked;
      };
      const derivation = lineageOf({ settings: ctx.deps.ledger.settings, nameOf }, record.id);
      if (derivation !== undefined) session.derivation = derivation;
    }
    if (turn !== undefined) session.activity = activityOf(turn, record.updated_at, ctx.now());
    if (stopReason !== undefined) session.stop_reason = stopReason;
    if (reason !== undefined) session.stop_detail = reason;
    return session;
  };
}
