// The agent's own settings of one session as controls: its modes (ACP `modes`,
import { asJsonObject, shownText } from "../../contract/json-value";

// `current_mode_update`), its config options (`configOptions`, e.g. the model) and the model
// it names in usage. Read from the session defensively; an option the agent also offers as
// modes (Claude's `mode` option) is shown once, as the mode.

type ModeChoice = { id: string; name: string; description: string | undefined };

type ModeControl = { current: string; choices: ModeChoice[] };

export type ConfigChoice = { value: string; label: string; group: string | undefined };

export type ConfigControl =
  | {
      kind: "select";
      id: string;
      label: string;
      description: string | undefined;
      current: string;
      choices: ConfigChoice[];
    }
  | {
      kind: "boolean";
      id: string;
      label: string;
      description: string | undefined;
      current: boolean;
    };

export type AgentControlsView = {
  mode: ModeControl | undefined;
  options: ConfigControl[];
  /** The model the agent reports, unless a model option already shows it. */
  model: string | undefined;
};

type SessionSettings = {
  modes?: unknown;
  config_options?: unknown;
  model?: unknown;
};

function modeControl(raw: unknown): ModeControl | undefined {
  const modes = asJsonObject(raw);
  const list = Array.isArray(modes?.available_modes) ? modes.available_modes : [];
  const choices: ModeChoice[] = [];
  for (const entry of list) {
    const mode = asJsonObject(entry);
    const id = shownText(mode?.id);
    if (id === undefined || choices.some((choice) => choice.id === id)) continue;
    choices.push({
      id,
      name: shownText(mode?.name) ?? id,
      description: shownText(mode?.description),
    });
  }
  if (choices.length === 0) return undefined;
  return { current: shownText(modes?.current_mode_id) ?? "", choices };
}

function configControl(raw: unknown): ConfigControl | undefined {
  const option = asJsonObject(raw);
  const id = shownText(option?.id);
  if (option === undefined || id === undefined) return undefined;
  const label = shownText(option.label) ?? id;
  const description = shownText(option.description);
  if (option.kind === "boolean") {
    return { kind: "boolean", id, label, description, current: option.current === "true" };
  }
  if (option.kind !== "select") return undefined;
  const values = Array.isArray(option.values) ? option.values : [];
  const choices: ConfigChoice[] = [];
  for (const entry of values) {
    const value = asJsonObject(entry);
    const name = shownText(value?.value);
    if (name === undefined || choices.some((choice) => choice.value === name)) continue;
    choices.push({
      value: name,
      label: shownText(value?.label) ?? name,
      group: shownText(value?.group),
    });
  }
  if (choices.length === 0) return undefined;
  return {
    kind: "select",
    id,
    label,
    description,
    current: shownText(option.current) ?? "",
    choices,
  };
}

export function agentControlsView(session: SessionSettings): AgentControlsView {
  const mode = modeControl(session.modes);
  const rawOptions = Array.isArray(session.config_options) ? session.config_options : [];
  const options = rawOptions
    .filter((raw) => !(mode !== undefined && asJsonObject(raw)?.category === "mode"))
    .map(configControl)
    .filter((control) => control !== undefined);
  const model = shownText(session.model);
  const modelShown = rawOptions.some(
    (raw) =>
      asJsonObject(raw)?.category === "model" && shownText(asJsonObject(raw)?.current) === model,
  );
  return { mode, options, model: modelShown ? undefined : model };
}

/** Values in their groups, in the agent's order: `[group | undefined, choices][]`. */
export function groupedChoices(
  choices: readonly ConfigChoice[],
): Array<[string | undefined, ConfigChoice[]]> {
  const groups: Array<[string | undefined, ConfigChoice[]]> = [];
  for (const choice of choices) {
    const last = groups[groups.length - 1];
    if (last && last[0] === choice.group) last[1].push(choice);
    else groups.push([choice.group, [choice]]);
  }
  return groups;
}

/** The current value is not among the choices (an agent may report one it does not list). */
export function isUnlisted(current: string, choices: readonly { value?: string; id?: string }[]) {
  return current !== "" && !choices.some((choice) => (choice.value ?? choice.id) === current);
}
