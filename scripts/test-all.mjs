#!/usr/bin/env node
// `npm test`: lint, dead code, typecheck, unit + component (vitest) and end-to-end (Playwright) tests,
// then one plain line `N passed, N failed[, N skipped]` summed from the runners' JSON
// reports, because CI reads only that line. Exits non-zero when anything failed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

const reports = "reports";
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const tally = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(label, command, args, env = {}) {
  console.log(`\n▶ ${label}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

function step(label, command, args) {
  if (run(label, command, args)) tally.passed += 1;
  else {
    tally.failed += 1;
    failures.push(label);
  }
}

function readJson(path) {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

step("lint", "npx", ["biome", "check", "."]);
// Unused files, exports and dependencies (knip.json names the entry points).
step("dead code", "npx", ["knip"]);
step("typecheck", "npx", ["tsc", "--noEmit", "-p", "tsconfig.json"]);

const vitestOk = run(
  "unit and component tests",
  "npx",
  [
    "vitest",
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${reports}/vitest.json`,
  ],
  { NO_COLOR: "1" },
);
const vitest = readJson(`${reports}/vitest.json`);
if (vitest) {
  tally.passed += vitest.numPassedTests ?? 0;
  tally.failed += vitest.numFailedTests ?? 0;
  tally.skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  // A suite that failed to load has no test results of its own: count it as one failure.
  if (!vitestOk && (vitest.numFailedTests ?? 0) === 0) {
    tally.failed += Math.max(1, vitest.numFailedTestSuites ?? 0);
    failures.push("vitest (suite failed to run)");
  } else if (!vitestOk) failures.push("vitest");
} else {
  tally.failed += 1;
  failures.push("vitest (no report)");
}

const built = run("build the SPA", "npx", ["vite", "build", "--logLevel", "warn"]);
if (!built) {
  tally.failed += 1;
  failures.push("vite build");
} else {
  const e2eOk = run("end-to-end tests", "npx", ["playwright", "test"]);
  const pw = readJson(`${reports}/playwright.json`);
  if (pw?.stats) {
    tally.passed += (pw.stats.expected ?? 0) + (pw.stats.flaky ?? 0);
    if ((pw.stats.flaky ?? 0) > 0) {
      console.log(
        `\n⚠ ${pw.stats.flaky} end-to-end test(s) passed only on retry (flaky): see above.`,
      );
    }
    tally.failed += pw.stats.unexpected ?? 0;
    tally.skipped += pw.stats.skipped ?? 0;
    if (!e2eOk && (pw.stats.unexpected ?? 0) === 0) {
      tally.failed += 1;
      failures.push("playwright (run failed)");
    } else if (!e2eOk) failures.push("playwright");
  } else {
    tally.failed += 1;
    failures.push("playwright (no report)");
  }
}

if (failures.length > 0) console.log(`\nFailed: ${failures.join(", ")}`);
const skipped = tally.skipped > 0 ? `, ${tally.skipped} skipped` : "";
console.log(`\n${tally.passed} passed, ${tally.failed} failed${skipped}`);
process.exit(tally.failed === 0 ? 0 : 1);
