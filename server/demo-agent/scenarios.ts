// `/demo <scenario>`: the table in server/demo-agent/README.md. Compaction scenarios are armed and shape the
// next compaction (queued in order: `/demo fail` then `/demo codex` means the next one fails
// and the one after is Codex-style). Reply scenarios shape the reply to the `/demo` prompt
// itself; `idle` schedules a compaction right after that turn; `no-usage` is a switch.
import { z } from "../../src/contract/zod";

export const COMPACTION_SCENARIOS = [
  "fail",
  "paused",
  "slow",
  "codex",
  "correct",
  "late-chunk",
  "replace",
  "clear",
  "big",
  "crash",
  "bad-frame",
  "lossy",
  "keep-pinned",
  "forgetful",
] as const;

export const ArmedCompaction = z.object({
  name: z.enum(COMPACTION_SCENARIOS),
  /** Only for `slow`: how long the compaction stays in progress. */
  seconds: z.optional(z.number().check(z.nonnegative())),
});
export type ArmedCompaction = z.infer<typeof ArmedCompaction>;

export type DemoScenario =
  | { kind: "arm"; armed: ArmedCompaction }
  | { kind: "fill"; percent: number }
  | { kind: "wait"; seconds: number }
  | { kind: "markdown" }
  | { kind: "tools" }
  | { kind: "approvals" }
  | { kind: "idle" }
  | { kind: "no-usage" };

export const SCENARIO_HELP: ReadonlyArray<readonly [usage: string, effect: string]> = [
  [
    "fill <percent>",
    "grow the context to that share of the window (a long reply and a big file read)",
  ],
  ["fail", "the next compaction fails"],
  ["paused", "the next compaction goes in_progress → _paused → completed"],
  ["slow <seconds>", "the next compaction stays in progress that long (cancel it!)"],
  ["wait <seconds>", "this reply takes that long to begin (queue messages behind it, or stop it)"],
  ["codex", "the next compaction completes with no summary, no chunks and no usage report"],
  ["correct", "the next compaction completes, then is corrected to failed"],
  ["late-chunk", "the next compaction gets a summary chunk after it completed"],
  ["replace", "the next compaction's final summary replaces its chunks"],
  ["clear", "the next compaction completes with an empty summary"],
  ["big", "the next compaction's summary is over 16 KiB and holds a fake API key"],
  ["markdown", "this reply shows headings, a table, code, a link and an image"],
  [
    "tool <name> [json]",
    "call a session tool the daemon offered over MCP (tideline__session_history, tideline__session_compact)",
  ],
  ["tools", "this reply runs several tool calls, one of them failing"],
  [
    "approvals",
    "this reply asks your permission to edit a file, then to run a command (the real adapters' options)",
  ],
  ["crash", "the process exits in the middle of the next compaction"],
  ["idle", "a compaction starts after this turn has ended"],
  ["no-usage", "stop sending usage updates from now on"],
  ["bad-frame", "the next compaction puts one malformed compaction_update on the wire"],
  [
    "lossy",
    "the next summary keeps only the goal: later instructions, files and your last request are dropped",
  ],
  [
    "keep-pinned",
    'like lossy, but your "Keep this: …" messages are quoted word for word (pin one to see it kept)',
  ],
  [
    "forgetful",
    "the next summary covers only the turns since the previous compaction, losing what that one kept",
  ],
];

export type ParsedScenario = { ok: true; scenario: DemoScenario } | { ok: false; problem: string };

const SIMPLE_ARMED = new Set<string>(COMPACTION_SCENARIOS.filter((name) => name !== "slow"));

function isSimpleArmed(name: string): name is Exclude<ArmedCompaction["name"], "slow"> {
  return SIMPLE_ARMED.has(name);
}

/** Parses the text after `/demo`, e.g. `fill 85` or `slow 5`. */
export function parseScenario(argument: string): ParsedScenario {
  const [name = "", value, ...rest] = argument.trim().split(/\s+/);
  if (rest.length > 0) return { ok: false, problem: `too many arguments for "${name}"` };
  if (name === "fill" || name === "slow" || name === "wait") {
    const number = Number(value);
    if (value === undefined || !Number.isFinite(number)) {
      return { ok: false, problem: `"${name}" needs a number` };
    }
    if (name === "fill") {
      if (number <= 0 || number >= 100) {
        return { ok: false, problem: "fill takes a percent between 0 and 100" };
      }
      return { ok: true, scenario: { kind: "fill", percent: number } };
    }
    if (number < 0 || number > 600) {
      return { ok: false, problem: `${name} takes 0 to 600 seconds` };
    }
    if (name === "wait") return { ok: true, scenario: { kind: "wait", seconds: number } };
    return { ok: true, scenario: { kind: "arm", armed: { name: "slow", seconds: number } } };
  }
  if (value !== undefined) return { ok: false, problem: `"${name}" takes no argument` };
  if (isSimpleArmed(name)) return { ok: true, scenario: { kind: "arm", armed: { name } } };
  if (
    name === "markdown" ||
    name === "tools" ||
    name === "approvals" ||
    name === "idle" ||
    name === "no-usage"
  ) {
    return { ok: true, scenario: { kind: name } };
  }
  return { ok: false, problem: name === "" ? "which scenario?" : `unknown scenario "${name}"` };
}
