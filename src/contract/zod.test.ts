import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "./zod";

const ROOT = resolve(import.meta.dirname, "../..");

describe("the contract's zod (ADR 0216)", () => {
  it("when a value breaks a schema, then the message is zod's English, not a bare 'Invalid input'", () => {
    const result = z.strictObject({ name: z.string().check(z.maxLength(3)) }).safeParse({
      name: "toolong",
      extra: 1,
    });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      "Too big: expected string to have <=3 characters",
      'Unrecognized key: "extra"',
    ]);
  });

  it("when any file uses zod, then it imports it through src/contract/zod.ts", () => {
    const files = execFileSync("git", ["ls-files", "*.ts", "*.tsx", "*.mjs"], { cwd: ROOT })
      .toString()
      .split("\n")
      .filter((file) => file !== "" && file !== "src/contract/zod.ts");
    const direct = files.filter((file) =>
      /^import [^;]*from "zod(\/[^"]*)?";/m.test(readFileSync(join(ROOT, file), "utf8")),
    );
    expect(direct).toEqual([]);
  });
});
