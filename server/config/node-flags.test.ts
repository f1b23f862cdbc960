import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DAEMON_NODE_FLAGS } from "./node-flags";

const scripts = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts;

describe("the daemon's Node flags", () => {
  it.each(["start", "daemon"])(
    "when `npm %s` runs the daemon, then it passes the same flags",
    (name) => {
      const script = scripts[name] ?? "";
      expect(script).toContain(`node ${DAEMON_NODE_FLAGS.join(" ")} --import tsx server/main.ts`);
    },
  );
});
