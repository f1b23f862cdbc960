import { readFileSync } from "node:fs";

/** The daemon's version, from package.json (reported by /api/health and to agents). */
export const DAEMON_VERSION: string = (() => {
  const raw: unknown = JSON.parse(
    readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
  );
  const version = (raw as { version?: unknown }).version;
  return typeof version === "string" ? version : "0.0.0";
})();
