// Test support for hooks: a real hook command (a shell script that appends its stdin to a
// file, as the README's example does) and a wait for the lines it wrote.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CompactionHookEvent, HookDeclaration } from "../hooks/hook-config";

export type HookBench = {
  dir: string;
  /** The file `record.sh` appends each payload to, one JSON line per run. */
  out: string;
  script: string;
  /** Every payload the hooks wrote so far. */
  payloads(): Record<string, unknown>[];
  /** Waits until at least `count` payloads are written, then returns them all. */
  waitForPayloads(count: number, timeoutMs?: number): Promise<Record<string, unknown>[]>;
  declaration(event: CompactionHookEvent, fields?: Partial<HookDeclaration>): HookDeclaration;
  cleanup(): void;
};

export function hookBench(): HookBench {
  const dir = mkdtempSync(join(tmpdir(), "tideline-hooks-"));
  const out = join(dir, "payloads.jsonl");
  const script = join(dir, "record.sh");
  writeFileSync(script, '#!/bin/sh\ncat >> "$HOOK_OUT"\n');
  chmodSync(script, 0o755);
  const payloads = () =>
    existsSync(out)
      ? readFileSync(out, "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as Record<string, unknown>)
      : [];
  return {
    dir,
    out,
    script,
    payloads,
    async waitForPayloads(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (payloads().length < count) {
        if (Date.now() > until) {
          throw new Error(`expected ${count} hook payloads, got ${JSON.stringify(payloads())}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return payloads();
    },
    declaration(event, fields = {}) {
      return {
        name: `${event.replace(".", "-")}-${Math.random().toString(36).slice(2, 8)}`,
        event,
        command: script,
        args: [],
        env: { HOOK_OUT: out },
        timeoutMs: 5000,
        cwd: dir,
        ...fields,
      };
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Resolves once nothing more arrives for `quietMs` (to assert that no hook fired). */
export async function settle(quietMs = 300): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, quietMs));
}
