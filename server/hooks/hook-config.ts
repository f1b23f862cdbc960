// The daemon's config file (`--config PATH`, TOML): today only hook declarations, in
// CompozyOS's own `[[hooks.declarations]]` shape (ADR 0080). Parsed strictly: a typo in a
// file that makes the daemon run programs must stop the start, not be ignored.
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { z } from "../../src/contract/zod";

const COMPACTION_HOOK_EVENTS = ["context.pre_compact", "context.post_compact"] as const;
export type CompactionHookEvent = (typeof COMPACTION_HOOK_EVENTS)[number];

const DEFAULT_HOOK_TIMEOUT_MS = 5_000;
const MAX_HOOK_TIMEOUT_MS = 10 * 60_000;

export type HookDeclaration = {
  name: string;
  event: CompactionHookEvent;
  /** An executable: absolute, or resolved against the config file's folder, or on PATH. */
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Unset: every compaction. */
  compactionTrigger?: "requested" | "agent";
  timeoutMs: number;
  /** The config file's folder: where the hook runs. */
  cwd: string;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

const UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** A Go-style duration as CompozyOS writes them: `250ms`, `5s`, `1.5s`, `2m`. */
export function parseDuration(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(value.trim());
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  const ms = Number(match[1]) * (UNITS_MS[match[2]] ?? Number.NaN);
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : undefined;
}

const Duration = z.pipe(
  z.string(),
  z.transform((value, ctx) => {
    const ms = parseDuration(value);
    if (ms === undefined || ms > MAX_HOOK_TIMEOUT_MS) {
      ctx.issues.push({
        code: "custom",
        input: value,
        message: `a duration from 1ms to 10m like "5s", got "${value}"`,
      });
      return z.NEVER;
    }
    return ms;
  }),
);

const Declaration = z.strictObject({
  name: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "letters, digits, . _ -")),
  event: z.enum(COMPACTION_HOOK_EVENTS),
  // Observation only: CompozyOS's other modes would let a hook hold up or change the
  // recording, which Tideline never allows.
  mode: z.optional(z.literal("async")),
  command: z.string().check(z.minLength(1)),
  args: z._default(z.array(z.string()), []),
  env: z._default(z.record(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/)), z.string()), {}),
  timeout: z.optional(Duration),
  matcher: z.optional(
    z.strictObject({ compaction_trigger: z.optional(z.enum(["requested", "agent"])) }),
  ),
});

const ConfigFile = z.strictObject({
  hooks: z.optional(z.strictObject({ declarations: z._default(z.array(Declaration), []) })),
});

function issuesOf(error: z.core.$ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(file)"}: ${issue.message}`)
    .join("; ");
}

/** Parses the config text; `baseDir` (the file's folder) anchors relative commands and is where hooks run. */
export function parseDaemonConfig(text: string, baseDir: string): HookDeclaration[] {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    throw new ConfigError(`not valid TOML: ${error instanceof Error ? error.message : error}`);
  }
  const parsed = ConfigFile.safeParse(raw);
  if (!parsed.success) throw new ConfigError(issuesOf(parsed.error));
  const declarations = parsed.data.hooks?.declarations ?? [];
  const names = new Set<string>();
  return declarations.map((declaration) => {
    if (names.has(declaration.name)) {
      throw new ConfigError(`hooks.declarations: the name "${declaration.name}" is used twice`);
    }
    names.add(declaration.name);
    const trigger = declaration.matcher?.compaction_trigger;
    return {
      name: declaration.name,
      event: declaration.event,
      // A bare name is looked up on PATH when it runs; a path with a slash is a file.
      command:
        declaration.command.includes("/") && !isAbsolute(declaration.command)
          ? resolve(baseDir, declaration.command)
          : declaration.command,
      args: declaration.args,
      env: declaration.env,
      ...(trigger === undefined ? {} : { compactionTrigger: trigger }),
      timeoutMs: declaration.timeout ?? DEFAULT_HOOK_TIMEOUT_MS,
      cwd: baseDir,
    };
  });
}

export function loadDaemonConfig(path: string): HookDeclaration[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  try {
    return parseDaemonConfig(text, dirname(resolve(path)));
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`${path}: ${error.message}`);
    throw error;
  }
}
