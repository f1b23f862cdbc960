// Continue and fork as the session view shows them (ADR 0136): the session this one came
// from and the ones derived from it, each with its name, read from `session_derivations`.
// A continued session names its successor: it is read-only from then on.
import type { SessionDerivation, SessionLink } from "../../../src/contract/session";
import type {
  Derivation,
  SessionReader,
  SessionSettingsStore,
  SessionStore,
} from "../../domain/session-recorder-api";

/** The name a session shows: its own, else the agent's title; null once deleted. */
export function shownNameOf(
  store: Pick<SessionStore, "getSession">,
  reader: Pick<SessionReader, "sessionSettings">,
  sessionId: string,
): string | undefined | null {
  const found = store.getSession(sessionId);
  if (found === undefined) return null;
  const title = reader.sessionSettings(sessionId).title;
  return found.name ?? (title ? title : undefined);
}

export type LineageDeps = {
  settings: SessionSettingsStore;
  /** The session's shown name (its own, else the agent's title); null when it is gone. */
  nameOf: (sessionId: string) => string | undefined | null;
};

function link(deps: LineageDeps, sessionId: string, derivation: Derivation): SessionLink {
  const name = deps.nameOf(sessionId);
  return {
    session_id: sessionId,
    kind: derivation.kind,
    ...(name === null ? { deleted: true } : name === undefined ? {} : { name }),
    created_at: derivation.createdAt,
  };
}

export function lineageOf(deps: LineageDeps, sessionId: string): SessionDerivation | undefined {
  const source = deps.settings.derivationOf(sessionId);
  const children = deps.settings.derivationsFrom(sessionId);
  if (source === undefined && children.length === 0) return undefined;
  const derived = children.map((child) => link(deps, child.sessionId, child));
  const continuedIn = children.find((child) => child.kind === "continue")?.sessionId;
  return {
    ...(source === undefined ? {} : { derived_from: link(deps, source.sourceSessionId, source) }),
    derived,
    ...(continuedIn === undefined ? {} : { continued_in: continuedIn }),
  };
}

/** The session a continue supersedes this one with, if any. */
export function successorOf(settings: SessionSettingsStore, sessionId: string): string | undefined {
  return settings.derivationsFrom(sessionId).find((child) => child.kind === "continue")?.sessionId;
}

const SUFFIX = { continue: "(continued)", fork: "(fork)" } as const;
const NAME_MAX = 200;

/** "Refactor (continued)", "Refactor (fork)": a derived session is named after its source. */
export function derivedName(
  sourceName: string | undefined,
  kind: "continue" | "fork",
): string | undefined {
  if (sourceName === undefined || sourceName.trim() === "") return undefined;
  const suffix = ` ${SUFFIX[kind]}`;
  const base = sourceName.trim();
  // A name carries one suffix of its kind: a continue of "X (continued)" stays "X (continued)".
  const stem = base.endsWith(suffix) ? base.slice(0, -suffix.length) : base;
  return `${stem.slice(0, NAME_MAX - suffix.length)}${suffix}`;
}
