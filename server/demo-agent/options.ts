// The demo agent's settings, read from CLI flags first and DEMO_AGENT_* environment variables
// second. A bad value is an OptionsError so main.ts can print it and exit with code 2.
import { tmpdir } from "node:os";
import { join } from "node:path";

export type CompactionCommandChoice = "compact" | "compress" | "none";

export type AgentOptions = {
  /** Pace multiplier: 0 = no delays at all, 1 = a pace a person can watch, 2 = twice as fast. */
  speed: number;
  /** Context window size reported in every usage_update. */
  contextSize: number;
  /** Share of the window (0–1] past which the agent compacts on its own inside a turn. */
  autoCompactAt: number;
  /** Which compaction command the agent advertises (and recognizes). */
  commands: CompactionCommandChoice;
  /** Where each session's state is kept as `<sessionId>.json`. */
  stateDir: string;
  /** Advertise `loadSession` (`--no-load-session` turns it off, like an agent that cannot reopen). */
  loadSession: boolean;
};

export class OptionsError extends Error {
  override name = "OptionsError";
}

export const DEFAULT_OPTIONS: AgentOptions = {
  speed: 1,
  contextSize: 200_000,
  autoCompactAt: 0.8,
  commands: "compact",
  stateDir: join(tmpdir(), "tideline-demo-agent"),
  loadSession: true,
};

const FLAG_TO_ENV = {
  speed: "DEMO_AGENT_SPEED",
  "context-size": "DEMO_AGENT_CONTEXT_SIZE",
  "auto-compact-at": "DEMO_AGENT_AUTO_COMPACT_AT",
  commands: "DEMO_AGENT_COMMANDS",
  "state-dir": "DEMO_AGENT_STATE_DIR",
} as const;

type FlagName = keyof typeof FLAG_TO_ENV;

function isFlagName(name: string): name is FlagName {
  return Object.hasOwn(FLAG_TO_ENV, name);
}

/** Switches that take no value, with the environment variable that sets them (`1`/`true`). */
const SWITCH_TO_ENV = { "no-load-session": "DEMO_AGENT_NO_LOAD_SESSION" } as const;
type SwitchName = keyof typeof SWITCH_TO_ENV;

function isSwitchName(name: string): name is SwitchName {
  return Object.hasOwn(SWITCH_TO_ENV, name);
}

/** Collects `--flag value` and `--flag=value` pairs; rejects unknown flags and missing values. */
function readFlags(argv: readonly string[]): Partial<Record<FlagName | SwitchName, string>> {
  const flags: Partial<Record<FlagName | SwitchName, string>> = {};
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? "";
    if (!arg.startsWith("--")) throw new OptionsError(`unexpected argument "${arg}"`);
    if (isSwitchName(arg.slice(2))) {
      flags[arg.slice(2) as SwitchName] = "true";
      continue;
    }
    const equals = arg.indexOf("=");
    const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
    if (isSwitchName(name)) throw new OptionsError(`--${name} takes no value`);
    if (!isFlagName(name)) throw new OptionsError(`unknown flag "--${name}"`);
    let value: string | undefined;
    if (equals === -1) {
      value = argv[index + 1];
      index += 1;
    } else {
      value = arg.slice(equals + 1);
    }
    if (value === undefined || value === "") throw new OptionsError(`--${name} needs a value`);
    flags[name] = value;
  }
  return flags;
}

function parseNumber(name: FlagName, raw: string, valid: (value: number) => boolean, rule: string) {
  const value = Number(raw);
  if (!Number.isFinite(value) || !valid(value)) {
    throw new OptionsError(`--${name} must be ${rule}, got "${raw}"`);
  }
  return value;
}

export function parseAgentOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): AgentOptions {
  const flags = readFlags(argv);
  const pick = (name: FlagName): string | undefined => {
    const fromEnv = env[FLAG_TO_ENV[name]];
    return flags[name] ?? (fromEnv === "" ? undefined : fromEnv);
  };
  const options: AgentOptions = { ...DEFAULT_OPTIONS };

  const speed = pick("speed");
  if (speed !== undefined) {
    options.speed = parseNumber("speed", speed, (v) => v >= 0, "a number ≥ 0");
  }
  const contextSize = pick("context-size");
  if (contextSize !== undefined) {
    options.contextSize = parseNumber(
      "context-size",
      contextSize,
      (v) => Number.isInteger(v) && v >= 1_000,
      "an integer ≥ 1000",
    );
  }
  const autoCompactAt = pick("auto-compact-at");
  if (autoCompactAt !== undefined) {
    options.autoCompactAt = parseNumber(
      "auto-compact-at",
      autoCompactAt,
      (v) => v > 0 && v <= 1,
      "a share in (0, 1]",
    );
  }
  const commands = pick("commands");
  if (commands !== undefined) {
    if (commands !== "compact" && commands !== "compress" && commands !== "none") {
      throw new OptionsError(`--commands must be compact, compress or none, got "${commands}"`);
    }
    options.commands = commands;
  }
  const stateDir = pick("state-dir");
  if (stateDir !== undefined) options.stateDir = stateDir;
  const noLoad = flags["no-load-session"] ?? env[SWITCH_TO_ENV["no-load-session"]];
  if (noLoad !== undefined && noLoad !== "") {
    if (!["1", "true", "0", "false"].includes(noLoad)) {
      throw new OptionsError(
        `DEMO_AGENT_NO_LOAD_SESSION must be 1, true, 0 or false, got "${noLoad}"`,
      );
    }
    options.loadSession = noLoad === "0" || noLoad === "false";
  }
  return options;
}
