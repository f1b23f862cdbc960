// One file, one item: `src/auth.ts` written in prose and `/home/user/app/src/auth.ts` from a
// tool call's location are the same path. A shorter form merges into the one longer path it
// is a `/`-suffix of; when two longer paths share it (two `index.ts`), it stays its own item.
import type { Candidate } from "./inventory";

function pathOf(candidate: Candidate): string {
  return candidate.subject.type === "path" ? candidate.subject.path : candidate.label;
}

export function mergePaths(candidates: Candidate[]): Candidate[] {
  const paths = candidates.filter((candidate) => candidate.kind === "path");
  const position = new Map(candidates.map((candidate, index) => [candidate, index]));
  // suffix → the longer paths ending in "/" + suffix (two are enough to call it ambiguous)
  const bySuffix = new Map<string, Candidate[]>();
  for (const candidate of paths) {
    const path = pathOf(candidate);
    let slash = path.indexOf("/");
    while (slash !== -1) {
      const suffix = path.slice(slash + 1);
      const owners = bySuffix.get(suffix) ?? [];
      if (owners.length < 2 && !owners.includes(candidate)) owners.push(candidate);
      bySuffix.set(suffix, owners);
      slash = path.indexOf("/", slash + 1);
    }
  }
  const merged = new Set<Candidate>();
  for (const candidate of paths) {
    const owners = bySuffix.get(pathOf(candidate));
    if (owners?.length !== 1) continue;
    const owner = owners[0] as Candidate;
    if (owner === candidate || merged.has(owner)) continue;
    owner.mentions += candidate.mentions;
    // The item links to the first mention, whichever form it took.
    if ((position.get(candidate) ?? 0) < (position.get(owner) ?? 0)) {
      owner.entry_id = candidate.entry_id;
      if (candidate.turn_id !== undefined) owner.turn_id = candidate.turn_id;
    }
    merged.add(candidate);
  }
  return candidates.filter((candidate) => !merged.has(candidate));
}
