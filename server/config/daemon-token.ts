// The daemon's own bearer token: where it came from decides what start-up says about it.
// `--token auto` makes one (so token mode costs nothing on loopback); a literal `--token`
// works but is visible to every local user in `ps`, so `TIDELINE_TOKEN` is preferred.
import { randomBytes } from "node:crypto";

/** Shorter tokens are refused: a guessable token is no protection (ADR 0171). */
export const MIN_TOKEN_LENGTH = 16;

export type TokenSource = "flag" | "env" | "auto";
export type DaemonToken = { value: string; source: TokenSource };

export class TokenError extends Error {
  override name = "TokenError";
}

/** 32 random bytes, URL-safe: it travels in `#token=` and `?access_token=` unescaped. */
function generateToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The token from `--token` (or `auto`) and `TIDELINE_TOKEN`; the flag wins. */
export function resolveDaemonToken(
  flag: string | undefined,
  env: string | undefined,
): DaemonToken | undefined {
  if (flag === "auto") return { value: generateToken(), source: "auto" };
  const [value, source]: [string | undefined, TokenSource] =
    flag !== undefined ? [flag, "flag"] : [env, "env"];
  if (value === undefined || value === "") return undefined;
  const name = source === "flag" ? "--token" : "TIDELINE_TOKEN";
  if (value.length < MIN_TOKEN_LENGTH) {
    throw new TokenError(
      `${name} must be at least ${MIN_TOKEN_LENGTH} characters (or use --token auto)`,
    );
  }
  if (/[\s\p{Cc}]/u.test(value)) {
    throw new TokenError(`${name} must not contain spaces or control characters`);
  }
  return { value, source };
}

/** What start-up prints about the token, one line each (never the token, except auto's URL). */
export function tokenNotices(
  config: { token?: string; tokenSource?: TokenSource },
  url: string,
): string[] {
  if (config.token === undefined || config.tokenSource === undefined) return [];
  const token = { value: config.token, source: config.tokenSource };
  if (token.source === "auto") return [`tideline: open ${url}/#token=${token.value}`];
  if (token.source === "flag") {
    return [
      "tideline: warning: --token is visible to other local users (ps); prefer TIDELINE_TOKEN or --token auto",
    ];
  }
  return [];
}
