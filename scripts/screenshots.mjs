#!/usr/bin/env node
// `npm run screenshots`: the README's pictures, taken by the e2e suite itself. Runs the
// specs that reach the main states with TIDELINE_SCREENSHOTS=docs/screenshots, so each of
// those states is saved there in both colour schemes at 1280 and 360 px (and still passes
// the accessibility gate on the way). Needs the same Chromium as the e2e tests.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";

const dir = "docs/screenshots";
/** The states the README shows; the e2e specs name them in `tideline.screenshot(name)`. */
const STATES = [
  "timeline-welcome-summary-open",
  "timeline-compacting",
  "timeline-failed",
  "context-unknown-after-compaction",
  "interrupted-by-crash",
  "narrow-context-sheet",
];
/** The tests that reach them (Playwright --grep over titles). */
const TESTS = [
  "when the welcome session opens",
  "when /compact runs, then one row goes",
  "when the compaction fails, then the row is an alert",
  "when a compaction clears the reading",
  "when the agent crashes mid-compaction",
  "when the header's meter is tapped",
];

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const env = {
  ...process.env,
  TIDELINE_SCREENSHOTS: dir,
  TIDELINE_SCREENSHOT_STATES: STATES.join(","),
};
const run = (command, args) => spawnSync(command, args, { stdio: "inherit", env }).status === 0;
const escaped = TESTS.map((title) => title.replace(/[/\\^$*+?.()|[\]{}]/g, "\\$&"));
const ok =
  run("npx", ["vite", "build", "--logLevel", "warn"]) &&
  run("npx", ["playwright", "test", "--grep", escaped.join("|")]);
for (const file of readdirSync(dir).sort()) {
  console.log(`${file}\t${Math.round(statSync(`${dir}/${file}`).size / 1024)} KB`);
}
process.exit(ok ? 0 : 1);
