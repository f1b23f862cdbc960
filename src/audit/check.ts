// Checks each candidate against the summary text (ADR 0155). The summary is indexed once
// (its words, its path-like tokens, its URLs), so every check is a few set look-ups and an
// audit of 10,000 paths against a 1 MB summary stays linear.
import type { Candidate, Subject } from "./inventory";
import { fileNameOf, normalizeUrl, urlsIn } from "./mentions";
import { contentWords, matchWords } from "./words";

export type SummaryIndex = {
  /** Stemmed content words, as instructions are compared. */
  words: ReadonlySet<string>;
  /** Raw tokens split on whitespace and punctuation that cannot be inside a path or name. */
  tokens: ReadonlySet<string>;
  /** Every folder of a path the summary names (`src/auth/x.ts` → `src`, `src/auth`). */
  folders: ReadonlySet<string>;
  /** Lower-cased tokens, for programs and arguments. */
  lowerTokens: ReadonlySet<string>;
  urls: ReadonlySet<string>;
};

const TOKEN_SPLIT = /[\s`'"()[\]{}<>,;:!?*|=]+/;
const ERROR_WORDS = ["error", "fail", "failed", "failing", "failure", "broke", "broken", "crash"];

export function indexSummary(summary: string): SummaryIndex {
  const tokens = new Set<string>();
  const folders = new Set<string>();
  for (const raw of summary.split(TOKEN_SPLIT)) {
    const token = raw.replace(/[.]+$/, "");
    if (token === "") continue;
    tokens.add(token);
    // `/home/user/src/auth.ts` also names `src/auth.ts` and `auth.ts`.
    let slash = token.indexOf("/");
    while (slash !== -1) {
      const rest = token.slice(slash + 1);
      if (rest !== "") tokens.add(rest);
      if (slash > 0) folders.add(token.slice(0, slash));
      slash = token.indexOf("/", slash + 1);
    }
  }
  const lowerTokens = new Set<string>();
  for (const token of tokens) lowerTokens.add(token.toLowerCase());
  return {
    words: new Set(contentWords(summary)),
    tokens,
    folders,
    lowerTokens,
    urls: new Set(urlsIn(summary).map(normalizeUrl)),
  };
}

export type Verdict = { kept: boolean; why: string };

function checkPath(path: string, index: SummaryIndex): Verdict {
  const name = fileNameOf(path);
  if (index.tokens.has(path)) return { kept: true, why: `the summary names ${path}` };
  if (name !== "" && index.lowerTokens.has(name.toLowerCase())) {
    return { kept: true, why: `the summary names ${name}` };
  }
  // A folder (a search's scope, a `cd`) is named by any path inside it.
  if (index.folders.has(path.replace(/\/+$/, ""))) {
    return { kept: true, why: `the summary names a path in ${path}` };
  }
  return { kept: false, why: `the summary names neither ${path} nor ${name}` };
}

function checkWords(text: string, index: SummaryIndex, noun: string): Verdict {
  const match = matchWords(text, index.words);
  if (match.total === 0) {
    return { kept: true, why: `nothing distinctive to carry: only common words` };
  }
  const counted = `${match.found} of ${match.total} distinctive words`;
  return match.kept
    ? { kept: true, why: `the summary has ${counted}` }
    : { kept: false, why: `the summary has ${counted} of the ${noun}; ${match.needed} needed` };
}

function checkError(subject: Extract<Subject, { type: "error" }>, index: SummaryIndex): Verdict {
  const says = ERROR_WORDS.find((word) => index.lowerTokens.has(word) || index.words.has(word));
  if (says === undefined) return { kept: false, why: "the summary mentions no error or failure" };
  const about = subject.about.find((name) => index.lowerTokens.has(fileNameOf(name).toLowerCase()));
  if (about !== undefined) {
    return { kept: true, why: `the summary says "${says}" and names ${fileNameOf(about)}` };
  }
  const words = checkWords(subject.text, index, "error text");
  return words.kept
    ? {
        kept: true,
        why: `the summary says "${says}" and ${words.why.replace(/^the summary /, "")}`,
      }
    : { kept: false, why: `the summary says "${says}" but not about this: ${words.why}` };
}

export function checkCandidate(candidate: Candidate, index: SummaryIndex): Verdict {
  const subject = candidate.subject;
  switch (subject.type) {
    case "words":
      return checkWords(subject.text, index, candidate.kind === "plan" ? "plan entry" : "message");
    case "path":
      return checkPath(subject.path, index);
    case "command": {
      const { program, argument } = subject.command;
      const hasProgram = index.lowerTokens.has(program.toLowerCase());
      const hasArgument = argument === undefined || index.lowerTokens.has(argument.toLowerCase());
      const shown = argument === undefined ? program : `${program} ${argument}`;
      if (hasProgram && hasArgument) return { kept: true, why: `the summary names ${shown}` };
      const missing = hasProgram ? argument : program;
      return { kept: false, why: `the summary does not name ${missing} (of ${shown})` };
    }
    case "error":
      return checkError(subject, index);
    case "token":
      return index.tokens.has(subject.token)
        ? { kept: true, why: `the summary names ${subject.token}` }
        : { kept: false, why: `the summary does not name ${subject.token}` };
    case "url": {
      const url = normalizeUrl(subject.url);
      return index.urls.has(url) || index.tokens.has(url)
        ? { kept: true, why: "the summary has this URL" }
        : { kept: false, why: "the summary does not have this URL" };
    }
  }
}
