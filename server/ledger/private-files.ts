// The data directory holds every transcript and the daemon's agent records: it is the
// user's alone whatever the umask (0700 directory, 0600 files). An existing, looser
// directory or file is tightened, since a daemon started once with umask 022 left it so.
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";

const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

export function ensurePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(path, PRIVATE_DIR_MODE);
}

/** Creates the file empty (0600) if missing, else tightens it; a missing optional file is fine. */
export function ensurePrivateFile(path: string, options: { create?: boolean } = {}): void {
  if (options.create ?? true) {
    // `a` never truncates: an existing database is left as it is.
    closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
  }
  try {
    chmodSync(path, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
