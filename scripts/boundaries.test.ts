// The lint boundaries (ADR 0146) are configuration, so they are tested like code: each
// source below is written at its path in a scratch copy of the repository's layout, with the
// repository's own biome.json, and the real Biome must reject it with the rule's reason, or
// accept it.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIOME = join(ROOT, "node_modules/.bin/biome");
const scratch = mkdtempSync(join(tmpdir(), "tideline-boundaries-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Diagnostic = { category: string; message: string; location: { path: string } };

/** Lints `source` as if it were the repository's file `path`; returns its import diagnostics. */
function lintAs(
  path: string,
  source: string,
  category = "lint/style/noRestrictedImports",
): Diagnostic[] {
  const config = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8"));
  // The scratch folder is not a git checkout, and the schema path is relative to the repo.
  delete config.vcs;
  delete config.$schema;
  const dir = mkdtempSync(join(scratch, "case-"));
  writeFileSync(join(dir, "biome.json"), JSON.stringify(config));
  mkdirSync(join(dir, dirname(path)), { recursive: true });
  writeFileSync(join(dir, path), source);
  const result = spawnSync(BIOME, ["lint", "--reporter=json", path], {
    cwd: dir,
    encoding: "utf8",
  });
  const report = JSON.parse(result.stdout) as { diagnostics: Diagnostic[] };
  return report.diagnostics.filter((d) => d.category === category);
}

const use = (names: string) => `\nexport const used = [${names}];\n`;

describe("the import boundaries", () => {
  it.each([
    [
      "a feature importing another feature",
      "src/features/timeline/x.ts",
      `import { ContextRail } from "../context/context-rail";${use("ContextRail")}`,
      "A feature does not import another feature",
    ],
    [
      "a feature importing another feature through the alias",
      "src/features/timeline/x.ts",
      `import { ContextRail } from "@/features/context/context-rail";${use("ContextRail")}`,
      "A feature does not import another feature",
    ],
    [
      "a feature importing src/app/",
      "src/features/sessions/x.ts",
      `import { App } from "../../app/app";${use("App")}`,
      "Nothing imports src/app/",
    ],
    [
      "shared SPA code reaching up into a feature",
      "src/api/x.ts",
      `import { ContextRail } from "../features/context/context-rail";${use("ContextRail")}`,
      "never reaches up into a feature",
    ],
    [
      "the contract importing outside itself",
      "src/contract/x.ts",
      `import { formatTokens } from "../lib/format-tokens";${use("formatTokens")}`,
      "src/contract imports zod and itself only",
    ],
    [
      "the domain importing the ledger",
      "server/domain/x.ts",
      `import { openLedger } from "../ledger/open-ledger";${use("openLedger")}`,
      "server/domain is pure",
    ],
    [
      "the domain importing a Node built-in",
      "server/domain/x.ts",
      `import { readFileSync } from "node:fs";${use("readFileSync")}`,
      "server/domain is pure",
    ],
    [
      "production code importing test support",
      "server/acp/x.ts",
      `import { startTestDaemon } from "../testing/daemon";${use("startTestDaemon")}`,
      "must not import test support",
    ],
    [
      "the SPA importing test support",
      "src/lib/x.ts",
      `import { makeSession } from "@/testing/context-rail";${use("makeSession")}`,
      "must not import test support",
    ],
    [
      "the daemon importing the CLI",
      "server/hooks/x.ts",
      `import { runCli } from "../../cli/main";${use("runCli")}`,
      "The daemon and the CLI share only src/contract/",
    ],
    [
      "the CLI importing the daemon",
      "cli/x.ts",
      `import { openLedger } from "../server/ledger/open-ledger";${use("openLedger")}`,
      "The CLI and the daemon share only src/contract/",
    ],
    [
      "a route reaching into the SQLite implementation",
      "server/http/x.ts",
      `import { openLedger } from "../ledger/open-ledger";${use("openLedger")}`,
      "never the SQLite implementation",
    ],
    [
      "upstream mode importing the config",
      "server/upstream/x.ts",
      `import { parseFlags } from "../config/flags";${use("parseFlags")}`,
      "server/config composes upstream mode",
    ],
    [
      "a daemon module three folders deep importing the SPA beyond the contract",
      "server/acp/session/x.ts",
      `import { formatTokens } from "../../../src/lib/format-tokens";${use("formatTokens")}`,
      "imports only src/contract/, src/audit/ and src/first-screen/",
    ],
    [
      "the daemon importing the SPA beyond the contract",
      "server/acp/x.ts",
      `import { formatTokens } from "../../src/lib/format-tokens";${use("formatTokens")}`,
      "imports only src/contract/, src/audit/ and src/first-screen/",
    ],
  ])("when %s, then lint fails with the rule's reason", (_what, path, source, message) => {
    const found = lintAs(path, source);
    expect(found.length).toBeGreaterThan(0);
    expect(found.map((d) => d.message).join("\n")).toContain(message);
  });

  it.each([
    [
      "a feature importing its own files, the api and the contract",
      "src/features/timeline/x.ts",
      `import { a } from "./timeline-row";\nimport { b } from "../../api/http";\nimport { c } from "@/contract/session";${use("a, b, c")}`,
    ],
    [
      "the domain importing zod, the contract and the audit",
      "server/domain/x.ts",
      `import { z } from "zod";\nimport { a } from "../../src/contract/session";\nimport { b } from "../../src/audit/compaction-audit";\nimport { c } from "./acp-update";${use("z, a, b, c")}`,
    ],
    [
      "the CLI importing the contract",
      "cli/x.ts",
      `import { a } from "../src/contract/session";${use("a")}`,
    ],
    [
      "a daemon module three folders deep importing the contract",
      "server/acp/session/x.ts",
      `import { a } from "../../../src/contract/session";${use("a")}`,
    ],
    [
      "the daemon's routes drawing a session link's first screen",
      "server/http/x.ts",
      `import { a } from "../../src/first-screen/first-screen-page";${use("a")}`,
    ],
    [
      "a test importing test support",
      "server/acp/x.test.ts",
      `import { a } from "../testing/daemon";${use("a")}`,
    ],
    [
      "test support importing anything",
      "server/testing/x.ts",
      `import { a } from "../../cli/main";\nimport { b } from "../ledger/open-ledger";${use("a, b")}`,
    ],
  ])("when %s, then lint passes", (_what, path, source) => {
    expect(lintAs(path, source)).toEqual([]);
  });
});

describe("the size limits", () => {
  const longFunction = `export function long(): number {\n  let n = 0;\n${"  n += 1;\n".repeat(85)}  return n;\n}\n`;

  it("when a production function runs over 80 lines, then lint fails; in a test it passes", () => {
    const rule = "lint/complexity/noExcessiveLinesPerFunction";
    expect(lintAs("server/ledger/x.ts", longFunction, rule)).toHaveLength(1);
    expect(lintAs("server/ledger/x.test.ts", longFunction, rule)).toEqual([]);
  });

  it("when a production file runs over 400 lines, then lint fails", () => {
    const lines = Array.from({ length: 410 }, (_, i) => `export const c${i} = ${i};`).join("\n");
    expect(lintAs("src/lib/x.ts", `${lines}\n`, "lint/style/noExcessiveLinesPerFile")).toHaveLength(
      1,
    );
  });
});
