// What the agent last said of a session, each the newest row of its type (one index
// lookup): its command catalog, its settings (title, modes, config options, model) and its
// state; and what is still open after a crash: permission requests without an answer,
// compactions without a terminal row.
import type Database from "better-sqlite3";
import type { AvailableCommand, SessionState } from "../../src/contract/session";
import type { ConfigOption, ModeState } from "../domain/agent-session-info";
import type { SessionReader, SessionSettings } from "../domain/session-recorder-api";
import type { LedgerRowRaw } from "./read-rows";
import { READ_SQL } from "./read-sql";

export type AgentStateReader = Pick<
  SessionReader,
  | "availableCommands"
  | "sessionSettings"
  | "unresolvedPermissions"
  | "lastState"
  | "openCompactions"
>;

type NewestOfType = (type: string) => LedgerRowRaw | undefined;

function parse(row: LedgerRowRaw | undefined): Record<string, unknown> | undefined {
  return row === undefined ? undefined : (JSON.parse(row.content) as Record<string, unknown>);
}

/**
 * The session's modes, with the current mode the newest word on it: a mode update, or
 * the agent's `mode` config option (Claude answers a mode change with config_option_update
 * only).
 */
function currentModes(
  modesRow: LedgerRowRaw | undefined,
  modeRow: LedgerRowRaw | undefined,
  configRow: LedgerRowRaw | undefined,
  configOptions: ConfigOption[] | undefined,
): ModeState {
  const modes = (parse(modesRow) as ModeState | undefined) ?? {
    current_mode_id: "",
    available_modes: [],
  };
  let newest = modesRow?.sequence ?? 0;
  if (modeRow !== undefined && modeRow.sequence > newest) {
    modes.current_mode_id = String(parse(modeRow)?.current_mode_id ?? "");
    newest = modeRow.sequence;
  }
  const modeOption = configOptions?.find((option) => option.category === "mode");
  if (configRow !== undefined && configRow.sequence > newest && modeOption?.current) {
    if (modes.available_modes.some((mode) => mode.id === modeOption.current)) {
      modes.current_mode_id = modeOption.current;
    }
  }
  return modes;
}

function sessionSettings(newest: NewestOfType): SessionSettings {
  const settings: SessionSettings = {};
  const title = parse(newest("session.title"));
  if (title !== undefined) settings.title = typeof title.title === "string" ? title.title : null;
  const modesRow = newest("session.modes");
  const modeRow = newest("session.mode");
  const configRow = newest("session.config_options");
  const config = parse(configRow);
  if (config !== undefined) settings.config_options = config.config_options as ConfigOption[];
  if (modesRow !== undefined || modeRow !== undefined) {
    settings.modes = currentModes(modesRow, modeRow, configRow, settings.config_options);
  }
  // The newest reading only: Claude names the model in every usage_update.
  const usage = parse(newest("usage"));
  const model =
    typeof usage?.model === "string"
      ? usage.model
      : settings.config_options?.find((option) => option.category === "model")?.current;
  if (model !== undefined && model !== "") settings.model = model;
  return settings;
}

export function createAgentStateReader(db: Database.Database): AgentStateReader {
  const newestOfType = db.prepare<[string, string], LedgerRowRaw>(READ_SQL.newestOfType);
  const openRows = db.prepare<[string], { compaction_id: string }>(READ_SQL.openRows);
  const rowsOfType = db.prepare<[string, string], LedgerRowRaw>(READ_SQL.rowsOfType);
  return {
    availableCommands(sessionId) {
      const row = newestOfType.get(sessionId, "available_commands");
      if (row === undefined) return [];
      return (JSON.parse(row.content) as { commands: AvailableCommand[] }).commands;
    },
    sessionSettings: (sessionId) => sessionSettings((type) => newestOfType.get(sessionId, type)),
    unresolvedPermissions(sessionId) {
      const resolved = new Set(
        rowsOfType
          .all(sessionId, "permission.resolved")
          .map((row) => String((JSON.parse(row.content) as { request_id?: unknown }).request_id)),
      );
      return rowsOfType
        .all(sessionId, "permission.requested")
        .map((row) => {
          const content = JSON.parse(row.content) as { request_id: string; tool_call_id: string };
          return {
            request_id: content.request_id,
            tool_call_id: content.tool_call_id,
            turn_id: row.turn_id,
          };
        })
        .filter((request) => !resolved.has(request.request_id));
    },
    lastState(sessionId) {
      const row = newestOfType.get(sessionId, "session.state");
      if (row === undefined) return { state: "stopped" };
      const content = JSON.parse(row.content) as { state: SessionState; reason?: string };
      return content.reason === undefined
        ? { state: content.state }
        : { state: content.state, reason: content.reason };
    },
    openCompactions(sessionId) {
      return openRows.all(sessionId).map((row) => row.compaction_id);
    },
  };
}
