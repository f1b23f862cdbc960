import { readFileSync } from "node:fs";

/** The package version, sent in the user agent and printed by `--version`. */
export const CLI_VERSION: string = (() => {
  try {
    const raw = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    return typeof raw?.version === "string" ? raw.version : "0.0.0";
  } catch {
    return "0.0.0";
  }
})();
