// The docs stay true by test, not by review: every ADR has the one heading style and a
// Status line, appears in the index, and no document or comment cites a file outside the
// repository (the project's early notes, or the shared folder they lived in).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DECISIONS = join(ROOT, "docs/decisions");
const adrs = readdirSync(DECISIONS).filter((name) => /^\d{4}-.+\.md$/.test(name));

describe("the decision records", () => {
  it.each(adrs)("%s has the heading style and a Status line", (name) => {
    const lines = readFileSync(join(DECISIONS, name), "utf8").split("\n");
    expect(lines[0]).toMatch(new RegExp(`^# ${name.slice(0, 4)}\\. \\S`));
    expect(
      lines.slice(1, 4).some((line) => /^Status: (accepted|proposed|superseded)/.test(line)),
    ).toBe(true);
  });

  it("when an ADR is added, then the index lists it, and each number is used once", () => {
    const index = readFileSync(join(DECISIONS, "README.md"), "utf8");
    for (const name of adrs) expect(index).toContain(`](${name})`);
    const numbers = adrs.map((name) => name.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it("when the repository is searched, then nothing cites the early notes or the shared folder", () => {
    const patterns = [
      "\\.\\./shared",
      "shared/spec",
      "(^|[^a-z0-9/-])spec/[a-z-]+\\.md",
      "(^|[^a-z0-9/-])(acp-intake|web-ui|wire-contract|demo-agent)\\.md",
    ];
    let found = "";
    try {
      found = execFileSync(
        "git",
        [
          "grep",
          "-n",
          "-E",
          patterns.join("|"),
          "--",
          "docs",
          "README.md",
          "src",
          "server",
          "cli",
          "e2e",
          "bench",
          ":!scripts/decisions.test.ts",
        ],
        { cwd: ROOT, encoding: "utf8" },
      );
    } catch (error) {
      // git grep exits 1 when nothing matches: the expected case.
      if ((error as { status?: number }).status !== 1) throw error;
    }
    expect(found).toBe("");
  });
});
