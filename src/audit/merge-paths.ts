// One file, one item: `src/auth.ts` written in prose and `/home/user/app/src/auth.ts` from a
// tool call's location are the same path. A shorter form merges into the one longer path it
// is a `/`-suffix of; when two longer paths share it (two `index.ts`), it stays its own item.
import type { Candidate } from "./inventory";
import { fileNameOf } from "./mentions";

function pathOf(candidate: Candidate): string {
  return candidate.subject.type === "path" ? candidate.subject.path : candidate.label;
}

export function mergePaths(candidates: Candidate[]): Candidate[] {
  // Only paths with the same file name can be forms of one another: group by it first, so
  // 10,000 distinct files cost one map look-up each.
  const byName = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    if (candidate.kind !== "path") continue;
    const name = fileNameOf(pathOf(candidate));
    const group = byName.get(name);
    if (group === undefined) byName.set(name, [candidate]);
    else group.push(candidate);
  }
  const merged = new Set<Candidate>();
  for (const group of byName.values()) {
    if (group.length < 2) continue;
    for (const short of group) {
      const path = pathOf(short);
      const owners = group.filter((other) => other !== short && pathOf(other).endsWith(`/${path}`));
      const owner = owners[0];
      if (owners.length !== 1 || owner === undefined || merged.has(owner)) continue;
      owner.mentions += short.mentions;
      // The item links to the first mention, whichever form it took.
      if (candidates.indexOf(short) < candidates.indexOf(owner)) {
        owner.entry_id = short.entry_id;
        if (short.turn_id !== undefined) owner.turn_id = short.turn_id;
        else delete owner.turn_id;
      }
      merged.add(short);
    }
  }
  return merged.size === 0 ? candidates : candidates.filter((candidate) => !merged.has(candidate));
}
