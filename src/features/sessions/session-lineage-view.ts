// The lineage line under a session's header (ADR 0136): where it came from and what was
// continued or forked from it, as phrases with the linked sessions' names.
import type { Session, SessionLink } from "../../contract/session";

type LineageLink = { sessionId: string; label: string; deleted: boolean };
export type LineagePhrase = { lead: string; links: LineageLink[] };

function linkOf(link: SessionLink): LineageLink {
  return {
    sessionId: link.session_id,
    label: link.deleted
      ? "a deleted session"
      : (link.name ?? `session ${link.session_id.slice(0, 8)}`),
    deleted: link.deleted === true,
  };
}

export function lineagePhrases(session: Session | undefined): LineagePhrase[] {
  const derivation = session?.derivation;
  if (derivation === undefined) return [];
  const phrases: LineagePhrase[] = [];
  const from = derivation.derived_from;
  if (from !== undefined) {
    phrases.push({
      lead: from.kind === "fork" ? "Forked from" : "Continued from",
      links: [linkOf(from)],
    });
  }
  const continued = derivation.derived.filter((link) => link.kind === "continue");
  const forks = derivation.derived.filter((link) => link.kind === "fork");
  if (continued.length > 0) phrases.push({ lead: "Continued in", links: continued.map(linkOf) });
  if (forks.length > 0) phrases.push({ lead: "Forked into", links: forks.map(linkOf) });
  return phrases;
}
