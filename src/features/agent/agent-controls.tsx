import { useId } from "react";
import { Spinner } from "../../components/spinner";
import {
  type AgentControlsView,
  type ConfigControl,
  groupedChoices,
  isUnlisted,
} from "./agent-controls-view";

export type AgentControlsState = {
  /** The control being set (`mode`, or a config option id), while its request runs. */
  setting: string | undefined;
  /** The daemon's refusal, in its words. */
  error: string | undefined;
};

const SELECT_CLASSES =
  "max-w-48 truncate rounded-md border border-slate-300 bg-white px-1.5 py-0.5 text-xs text-slate-900 disabled:opacity-70 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

/**
 * The agent's mode, config options (e.g. the model) and reported model, as compact native
 * controls: a change is sent at once and the daemon's answer (or refusal) shows here. The
 * session header or the context rail includes it.
 */
export function AgentControls({
  view,
  state,
  onSetMode,
  onSetConfig,
}: {
  view: AgentControlsView;
  state: AgentControlsState;
  onSetMode: (modeId: string) => void;
  onSetConfig: (configId: string, value: string | boolean) => void;
}) {
  const modeId = useId();
  const modeHelpId = useId();
  if (view.mode === undefined && view.options.length === 0 && view.model === undefined) return null;
  const busy = state.setting !== undefined;
  const currentMode = view.mode?.choices.find((choice) => choice.id === view.mode?.current);
  return (
    <fieldset className="min-w-0 space-y-1 text-xs">
      <legend className="sr-only">Agent settings</legend>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {view.mode ? (
          <span className="inline-flex items-center gap-1">
            <label htmlFor={modeId} className="font-medium text-slate-700 dark:text-slate-300">
              Mode
            </label>
            <select
              id={modeId}
              value={view.mode.current}
              disabled={busy}
              aria-describedby={currentMode?.description ? modeHelpId : undefined}
              onChange={(event) => onSetMode(event.target.value)}
              className={SELECT_CLASSES}
            >
              {isUnlisted(view.mode.current, view.mode.choices) || view.mode.current === "" ? (
                <option value={view.mode.current}>{view.mode.current || "—"}</option>
              ) : null}
              {view.mode.choices.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.name}
                </option>
              ))}
            </select>
            {state.setting === "mode" ? <Spinner /> : null}
          </span>
        ) : null}
        {view.options.map((control) => (
          <ConfigField
            key={control.id}
            control={control}
            disabled={busy}
            setting={state.setting === control.id}
            onSet={(value) => onSetConfig(control.id, value)}
          />
        ))}
        {view.model ? (
          <span className="text-slate-700 dark:text-slate-300">
            <span className="font-medium">Model in use</span>{" "}
            <span className="font-mono">{view.model}</span>
          </span>
        ) : null}
      </div>
      {currentMode?.description ? (
        <p id={modeHelpId} className="text-slate-600 dark:text-slate-400">
          {currentMode.description}
        </p>
      ) : null}
      {state.error ? (
        <p role="alert" className="text-red-800 dark:text-red-300">
          {state.error}
        </p>
      ) : null}
    </fieldset>
  );
}

function ConfigField({
  control,
  disabled,
  setting,
  onSet,
}: {
  control: ConfigControl;
  disabled: boolean;
  setting: boolean;
  onSet: (value: string | boolean) => void;
}) {
  const id = useId();
  if (control.kind === "boolean") {
    return (
      <span className="inline-flex items-center gap-1" title={control.description}>
        <input
          id={id}
          type="checkbox"
          checked={control.current}
          disabled={disabled}
          onChange={(event) => onSet(event.target.checked)}
        />
        <label htmlFor={id} className="font-medium text-slate-700 dark:text-slate-300">
          {control.label}
        </label>
        {setting ? <Spinner /> : null}
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1">
      <label htmlFor={id} className="font-medium text-slate-700 dark:text-slate-300">
        {control.label}
      </label>
      <select
        id={id}
        value={control.current}
        disabled={disabled}
        onChange={(event) => onSet(event.target.value)}
        className={SELECT_CLASSES}
      >
        {isUnlisted(control.current, control.choices) || control.current === "" ? (
          <option value={control.current}>{control.current || "—"}</option>
        ) : null}
        {groupedChoices(control.choices).map(([group, choices]) =>
          group === undefined ? (
            choices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))
          ) : (
            <optgroup key={group} label={group}>
              {choices.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </optgroup>
          ),
        )}
      </select>
      {setting ? <Spinner /> : null}
    </span>
  );
}
