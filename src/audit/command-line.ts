// A command as the audit's rule reads it (ADR 0155): its program and first argument. Shell
// wrappers (`bash -lc "…"`), leading `cd dir &&`, `sudo`, `env` and `VAR=value` assignments
// are looked through, so `cd web && FOO=1 npm test` is `npm test`.

export type CommandLine = { program: string; argument?: string };

const WRAPPER_SHELLS = new Set(["bash", "sh", "zsh", "dash", "fish"]);
const PREFIXES = new Set(["sudo", "env", "time", "nohup", "exec", "command"]);
/** Longer commands are cut before they are split: the program and argument come first. */
const MAX_COMMAND_CHARS = 4096;

/** Words of a shell command, quotes removed; good enough for the first few words. */
function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const match of command.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    // An unmatched quote (a segment cut at `&&` inside quotes) is dropped from the word.
    words.push(match[1] ?? match[2] ?? (match[3] ?? "").replace(/^["']+|["']+$/g, ""));
  }
  return words.filter((word) => word !== "");
}

function segmentsOf(command: string): string[] {
  return command
    .split(/&&|\|\||;|\|/)
    .map((segment) => segment.trim())
    .filter((segment) => segment !== "");
}

function fromWords(words: string[], depth: number): CommandLine | undefined {
  let index = 0;
  while (index < words.length) {
    const word = words[index] as string;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || PREFIXES.has(word)) index += 1;
    else break;
  }
  const programWord = words[index];
  if (programWord === undefined) return undefined;
  const program = programWord.slice(programWord.lastIndexOf("/") + 1);
  const argument = words[index + 1];
  if (
    depth < 2 &&
    WRAPPER_SHELLS.has(program) &&
    argument !== undefined &&
    /^-[a-z]*c$/.test(argument)
  ) {
    const inner = words.slice(index + 2).join(" ");
    return parseCommand(inner, depth + 1);
  }
  if (program === "") return undefined;
  return argument === undefined ? { program } : { program, argument };
}

export function parseCommand(command: string, depth = 0): CommandLine | undefined {
  const segments = segmentsOf(command.slice(0, MAX_COMMAND_CHARS));
  // `cd somewhere && the real command`: the directory change is not what was run.
  const chosen = segments.find((segment) => !/^cd(\s|$)/.test(segment)) ?? segments[0];
  return chosen === undefined ? undefined : fromWords(shellWords(chosen), depth);
}
