#!/usr/bin/env node
// The `tideline` command. Node 20 cannot run TypeScript itself: tsx's loader is
// registered in this process (no extra processes), then the CLI module runs.
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../cli/main.ts");
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
