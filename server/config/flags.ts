// The daemon's command line (node:util parseArgs). Everything the daemon runs comes from
// here: agent commands are never taken from an HTTP request.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parse as shellParse } from "shell-quote";
import { PERMISSION_POLICIES, type PermissionPolicy } from "../acp/permission-broker";
import {
  checkReplayBudget,
  DEFAULT_REPLAY_BUDGET,
  type ReplayBudget,
  ReplayBudgetError,
} from "../domain/bounded-replay";
import {
  parseUpstreamTarget,
  type UpstreamTarget,
  UpstreamTargetError,
} from "../upstream/upstream-target";
import { type DaemonToken, resolveDaemonToken, TokenError } from "./daemon-token";

export type AgentSpec = { name: string; command: string; args: string[]; preset?: string };

export type DaemonConfig = {
  port: number;
  host: string;
  dataDir: string;
  token?: string;
  /** Where `token` came from: start-up warns about a `--token` and prints an auto one's URL. */
  tokenSource?: DaemonToken["source"];
  /** In flag order; the first is the default agent. */
  agents: AgentSpec[];
  workspace: string;
  allowedHosts: string[];
  contextWindows: Record<string, number>;
  distDir: string;
  /** Create the welcome session on an empty data dir (`--no-welcome` turns it off). */
  welcome: boolean;
  /** `--upstream`: serve the SPA and forward /api there, running no agents of its own. */
  upstream?: UpstreamTarget;
  /** `--config PATH`: the TOML file with hook declarations (ADR 0080). No default. */
  configPath?: string;
  /** Who answers permission requests: a person (`ask`), or the policy (ADR 0091). */
  permissions: PermissionPolicy;
  /** The one budget of every bounded replay (`--replay-max-bytes`, `--replay-max-message-bytes`). */
  replayBudget: ReplayBudget;
  /** Offer agents the MCP session tools (`--no-session-tools` turns them off). */
  sessionTools: boolean;
};

export class FlagError extends Error {
  override name = "FlagError";
}

const LOOPBACK_BINDS = new Set(["127.0.0.1", "localhost", "::1"]);
/** Binds that name no single address: the Host a client uses must be configured. */
const WILDCARD_BINDS = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * The Host names the daemon answers to: the configured ones plus the address it is bound
 * to, so `--host 192.168.1.5 --token …` is reachable as http://192.168.1.5:PORT/.
 */
function allowedHostsFor(host: string, configured: readonly string[]): string[] {
  if (LOOPBACK_BINDS.has(host) || WILDCARD_BINDS.has(host)) return [...configured];
  const name = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return configured.includes(name) ? [...configured] : [...configured, name];
}

export const DEMO_AGENT_NAME = "demo";

/** The built-in demo agent at a human pace, keeping its state beside the ledger. */
export function builtInDemoAgent(dataDir: string, extraArgs: readonly string[] = []): AgentSpec {
  const entry = fileURLToPath(new URL("../demo-agent/main.ts", import.meta.url));
  return {
    name: DEMO_AGENT_NAME,
    command: process.execPath,
    args: [
      "--import",
      import.meta.resolve("tsx"),
      entry,
      "--state-dir",
      resolve(dataDir, "demo-agent"),
      ...extraArgs,
    ],
  };
}

/**
 * The real adapters Tideline was tried with (issue 10), run through npx at the versions
 * checked. `--agent claude` / `--agent codex` pick them; `--agent claude=COMMAND` overrides.
 * The Claude adapter needs Node 22 on the adapter's PATH (README, "Use with Claude Code").
 */
const AGENT_PRESETS: Readonly<Record<string, readonly string[]>> = {
  claude: ["npx", "-y", "@agentclientprotocol/claude-agent-acp@0.101.0"],
  codex: ["npx", "-y", "@agentclientprotocol/codex-acp@2.6.0"],
};

function presetAgent(name: string): AgentSpec | undefined {
  const argv = AGENT_PRESETS[name];
  if (argv === undefined) return undefined;
  const [command, ...args] = argv;
  return command === undefined ? undefined : { name, command, args, preset: name };
}

/**
 * `NAME=COMMAND`, COMMAND split into words like a shell would (quotes, `$VAR` from the
 * daemon's environment), but no shell ever runs: operators and globs are refused.
 */
export function parseAgentFlag(
  value: string,
  env: Readonly<Record<string, string | undefined>> = {},
): AgentSpec {
  const equals = value.indexOf("=");
  if (equals === -1) {
    const preset = presetAgent(value.trim());
    if (preset !== undefined) return preset;
  }
  const name = equals === -1 ? "" : value.slice(0, equals).trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    const presets = [DEMO_AGENT_NAME, ...Object.keys(AGENT_PRESETS)].join(", ");
    throw new FlagError(`--agent needs NAME=COMMAND or a preset (${presets}), got "${value}"`);
  }
  const words = shellParse(value.slice(equals + 1), (key) => env[key] ?? "");
  const argv: string[] = [];
  for (const word of words) {
    if (typeof word !== "string") {
      throw new FlagError(`--agent ${name}: shell operators and globs are not supported`);
    }
    argv.push(word);
  }
  const [command, ...args] = argv;
  if (command === undefined) throw new FlagError(`--agent ${name}: empty command`);
  return { name, command, args };
}

function parseNamedNumber(value: string): [string, number] {
  const match = /^([^=]+)=(\d+)$/.exec(value);
  if (!match?.[1] || !match[2] || Number(match[2]) <= 0) {
    throw new FlagError(`--context-window needs NAME=TOKENS, got "${value}"`);
  }
  return [match[1], Number(match[2])];
}

function parseByteCount(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d{1,15}$/.test(raw))
    throw new FlagError(`${flag} must be a number of bytes, got "${raw}"`);
  return Number(raw);
}

function replayBudgetOf(values: { [flag: string]: unknown }): ReplayBudget {
  const maxReplayBytes = parseByteCount(
    "--replay-max-bytes",
    values["replay-max-bytes"] as string | undefined,
    DEFAULT_REPLAY_BUDGET.maxReplayBytes,
  );
  const maxMessageBytes = parseByteCount(
    "--replay-max-message-bytes",
    values["replay-max-message-bytes"] as string | undefined,
    DEFAULT_REPLAY_BUDGET.maxMessageBytes,
  );
  try {
    return checkReplayBudget({ maxReplayBytes, maxMessageBytes });
  } catch (error) {
    if (error instanceof ReplayBudgetError) throw new FlagError(error.message);
    throw error;
  }
}

export function parseDaemonFlags(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): DaemonConfig {
  let values: ReturnType<typeof parseRaw>["values"];
  try {
    values = parseRaw(argv).values;
  } catch (error) {
    throw new FlagError(error instanceof Error ? error.message : String(error));
  }
  const port = Number(values.port ?? "4820");
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new FlagError(`--port must be 0–65535, got "${values.port}"`);
  }
  const host = values.host ?? "127.0.0.1";
  const daemonToken = tokenOf(values.token, env.TIDELINE_TOKEN);
  if (!LOOPBACK_BINDS.has(host) && daemonToken === undefined) {
    throw new FlagError(`binding ${host} needs a token (TIDELINE_TOKEN or --token auto)`);
  }
  const dataDir = resolve(cwd, values["data-dir"] ?? ".data");
  // `--agent demo` names the built-in agent (the default one's name), e.g. to make it the
  // default ahead of another `--agent`; it takes the same state dir as the implicit one.
  const configured = (values.agent ?? []).map((value) =>
    value.trim() === DEMO_AGENT_NAME ? builtInDemoAgent(dataDir) : parseAgentFlag(value, env),
  );
  const agents = configured.some((agent) => agent.name === DEMO_AGENT_NAME)
    ? configured
    : [...configured, builtInDemoAgent(dataDir)];
  const names = new Set<string>();
  for (const agent of agents) {
    if (names.has(agent.name)) throw new FlagError(`--agent ${agent.name} given twice`);
    names.add(agent.name);
  }
  const upstream = parseUpstreamFlags(values, env, port);
  return {
    port,
    host,
    dataDir,
    ...(daemonToken === undefined
      ? {}
      : { token: daemonToken.value, tokenSource: daemonToken.source }),
    agents,
    workspace: resolve(cwd, values.workspace ?? "."),
    allowedHosts: allowedHostsFor(host, values["allowed-host"] ?? []),
    contextWindows: Object.fromEntries((values["context-window"] ?? []).map(parseNamedNumber)),
    distDir: fileURLToPath(new URL("../../dist", import.meta.url)),
    welcome: values["no-welcome"] !== true,
    permissions: parsePermissions(values.permissions),
    ...(upstream === undefined ? {} : { upstream }),
    ...(values.config === undefined ? {} : { configPath: resolve(cwd, values.config) }),
    replayBudget: replayBudgetOf(values),
    sessionTools: values["no-session-tools"] !== true,
  };
}

function tokenOf(flag: string | undefined, env: string | undefined): DaemonToken | undefined {
  try {
    return resolveDaemonToken(flag, env);
  } catch (error) {
    if (error instanceof TokenError) throw new FlagError(error.message);
    throw error;
  }
}

function parseUpstreamFlags(
  values: ReturnType<typeof parseRaw>["values"],
  env: Readonly<Record<string, string | undefined>>,
  port: number,
): UpstreamTarget | undefined {
  if (values.upstream === undefined) {
    if (values["upstream-token"] !== undefined) {
      throw new FlagError("--upstream-token needs --upstream");
    }
    return undefined;
  }
  // The upstream daemon runs the agents; silently ignoring these would mislead.
  for (const flag of ["agent", "context-window"] as const) {
    if (values[flag] !== undefined) throw new FlagError(`--${flag} cannot be used with --upstream`);
  }
  let target: UpstreamTarget;
  try {
    target = parseUpstreamTarget(
      values.upstream,
      values["upstream-token"] ?? env.TIDELINE_UPSTREAM_TOKEN,
    );
  } catch (error) {
    if (error instanceof UpstreamTargetError) throw new FlagError(error.message);
    throw error;
  }
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(target.url.hostname);
  if (loopback && port !== 0 && target.url.port === String(port)) {
    throw new FlagError(`--upstream ${target.url.origin} is this daemon's own port`);
  }
  return target;
}

function parsePermissions(value: string | undefined): PermissionPolicy {
  if (value === undefined) return "ask";
  const policy = PERMISSION_POLICIES.find((candidate) => candidate === value);
  if (policy === undefined) {
    throw new FlagError(`--permissions must be ${PERMISSION_POLICIES.join(", ")}, got "${value}"`);
  }
  return policy;
}

function parseRaw(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "data-dir": { type: "string" },
      token: { type: "string" },
      agent: { type: "string", multiple: true },
      workspace: { type: "string" },
      "allowed-host": { type: "string", multiple: true },
      "context-window": { type: "string", multiple: true },
      "no-welcome": { type: "boolean" },
      upstream: { type: "string" },
      "upstream-token": { type: "string" },
      config: { type: "string" },
      permissions: { type: "string" },
      "replay-max-bytes": { type: "string" },
      "no-session-tools": { type: "boolean" },
      "replay-max-message-bytes": { type: "string" },
    },
  });
}
