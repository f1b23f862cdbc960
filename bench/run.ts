// `npm run bench`: runs every benchmark script in this folder in turn, each in its own
// process so one's memory or timers never colour another's figures.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const scripts = readdirSync(here)
  .filter((file) => file.endsWith(".bench.ts"))
  .filter((file) => only === undefined || file.includes(only))
  .sort();

let failed = 0;
for (const script of scripts) {
  console.log(`\n# ${script}`);
  const result = spawnSync(process.execPath, ["--import", "tsx", join(here, script)], {
    stdio: "inherit",
  });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
