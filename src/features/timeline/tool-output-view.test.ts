import { describe, expect, it } from "vitest";
import { boundedLines, commandOf, terminalStatus, toolOutputView } from "./tool-output-view";

describe("toolOutputView", () => {
  it("when Codex reports terminal output in _meta, then the terminal block carries it and its exit", () => {
    const view = toolOutputView({
      input: { command: "touch /home/user/.agent && echo probe-done", cwd: "/home/user/.agent" },
      output: {
        content: [{ type: "terminal", terminalId: "call_22" }],
        terminals: {
          call_22: { output: "probe-done\n", truncated: false, exit_code: 0, signal: null },
        },
      },
    });
    expect(view.command).toBe("touch /home/user/.agent && echo probe-done");
    expect(view.blocks).toEqual([
      {
        kind: "terminal",
        terminal: { terminalId: "call_22", output: "probe-done\n", truncated: false, exitCode: 0 },
      },
    ]);
  });

  it("when Claude's Write carries a diff and text content, then both are blocks in order", () => {
    const view = toolOutputView({
      input: { file_path: "/p/a.txt", content: "hi" },
      output: {
        content: [
          { type: "diff", path: "/p/a.txt", oldText: null, newText: "hi" },
          { type: "content", content: { type: "text", text: "File created" } },
        ],
        raw_output: "ok",
      },
    });
    expect(view.blocks.map((block) => block.kind)).toEqual(["diff", "text"]);
    expect(view.rawInput).toEqual({ file_path: "/p/a.txt", content: "hi" });
    expect(view.rawOutput).toBe("ok");
  });

  it("when a refused Write replaced its diff with text, then the kept diff is shown as proposed", () => {
    const diff = { type: "diff", path: "/p/scratch", oldText: null, newText: "x\n" };
    const view = toolOutputView({
      output: {
        content: [{ type: "content", content: { type: "text", text: "Permission denied" } }],
        diffs: [diff, { type: "diff", path: 3 }],
      },
    });
    expect(view.blocks).toEqual([
      { kind: "diff", diff: { path: "/p/scratch", oldText: null, newText: "x\n" }, proposed: true },
      { kind: "text", text: "Permission denied" },
    ]);
    const applied = toolOutputView({ output: { content: [diff], diffs: [diff] } });
    expect(applied.blocks).toEqual([
      { kind: "diff", diff: { path: "/p/scratch", oldText: null, newText: "x\n" } },
    ]);
  });

  it("when output is reported for a terminal no block names, then it is still shown", () => {
    const view = toolOutputView({
      output: { terminals: { t1: { output: "x", truncated: true } } },
    });
    expect(view.blocks).toEqual([
      { kind: "terminal", terminal: { terminalId: "t1", output: "x", truncated: true } },
    ]);
  });

  it("when the output is some other value (an older daemon, CompozyOS), then a string is shown as it is and anything else is raw output", () => {
    expect(toolOutputView({ output: "export const x = 1;" })).toEqual({
      blocks: [{ kind: "plain", text: "export const x = 1;" }],
    });
    expect(toolOutputView({ output: { stdout: "x" } }).rawOutput).toEqual({ stdout: "x" });
    expect(toolOutputView({ output: [{ type: "terminal", terminalId: "x" }] }).blocks).toEqual([]);
  });

  it("when blocks are hostile or unknown, then they become a plain line, never a crash", () => {
    const view = toolOutputView({
      output: {
        content: [
          null,
          3,
          { type: "image" },
          { type: "content", content: { type: "image" } },
          { type: "terminal" },
        ],
        terminals: { a: "not an object" },
      },
    });
    expect(view.blocks.map((block) => block.kind)).toEqual([
      "other",
      "other",
      "other",
      "other",
      "other",
      "terminal",
    ]);
    expect(view.blocks[5]).toEqual({
      kind: "terminal",
      terminal: { terminalId: "a", output: "", truncated: false },
    });
  });
});

describe("commandOf", () => {
  it("when the command is a string or argv, then it is one line; else undefined", () => {
    expect(commandOf({ command: "ls -la" })).toBe("ls -la");
    expect(commandOf({ command: ["git", "status"] })).toBe("git status");
    expect(commandOf({ command: ["git", 3] })).toBeUndefined();
    expect(commandOf({ command: "  " })).toBeUndefined();
    expect(commandOf("ls")).toBeUndefined();
    expect(commandOf(null)).toBeUndefined();
  });
});

describe("terminalStatus", () => {
  it("when the command exited or was killed, then it says so; while running, nothing", () => {
    expect(terminalStatus({ terminalId: "t", output: "", truncated: false, exitCode: 2 })).toBe(
      "exit 2",
    );
    expect(
      terminalStatus({ terminalId: "t", output: "", truncated: false, signal: "SIGTERM" }),
    ).toBe("killed by SIGTERM");
    expect(terminalStatus({ terminalId: "t", output: "", truncated: false })).toBeUndefined();
  });
});

describe("boundedLines", () => {
  const lines = Array.from({ length: 10 }, (_, i) => i);
  it("when over the limit, then the head (or tail) is kept and the rest counted", () => {
    expect(boundedLines(lines, 3, false)).toEqual({ shown: [0, 1, 2], hidden: 7 });
    expect(boundedLines(lines, 3, false, "tail")).toEqual({ shown: [7, 8, 9], hidden: 7 });
  });
  it("when expanded or within the limit, then everything is shown", () => {
    expect(boundedLines(lines, 3, true).hidden).toBe(0);
    expect(boundedLines(lines, 10, false).shown).toHaveLength(10);
  });
});

describe("a failed tool call's error", () => {
  const text = (value: string) => ({ type: "content", content: { type: "text", text: value } });

  it("when the content says what the error says (fenced, as Claude sends a refusal), then it is said once", () => {
    const view = toolOutputView({
      output: {
        content: [text("```\nUser refused permission to run tool\n```")],
        raw_output: "User refused permission to run tool",
      },
      errorText: "User refused permission to run tool",
    });
    expect(view.blocks).toEqual([]);
    expect(view.error).toBe("User refused permission to run tool");
    // The raw payload stays behind its disclosure, not in the readable view.
    expect(view.rawOutput).toBe("User refused permission to run tool");
  });

  it("when the content says more than the error, then both are kept", () => {
    const view = toolOutputView({
      output: { content: [text("3 tests failed:\n- a\n- b\n- c")] },
      errorText: "exit 1",
    });
    expect(view.blocks).toEqual([{ kind: "text", text: "3 tests failed:\n- a\n- b\n- c" }]);
    expect(view.error).toBe("exit 1");
  });

  it("when the call did not fail, then there is no error", () => {
    expect(toolOutputView({ output: "ok" }).error).toBeUndefined();
    expect(toolOutputView({ output: "ok", errorText: "  " }).error).toBeUndefined();
  });
});

describe("an output that only wraps a text", () => {
  it("when it is {output: text} (CompozyOS passes raw outputs through), then the text is shown and the wrapper stays raw", () => {
    const view = toolOutputView({ output: { output: "src/a.ts\nsrc/b.ts" } });
    expect(view.blocks).toEqual([{ kind: "plain", text: "src/a.ts\nsrc/b.ts" }]);
    expect(view.rawOutput).toEqual({ output: "src/a.ts\nsrc/b.ts" });
  });

  it("when it has other fields, or an empty text, then it is only raw", () => {
    expect(toolOutputView({ output: { output: "x", code: 1 } }).blocks).toEqual([]);
    expect(toolOutputView({ output: { output: " " } }).blocks).toEqual([]);
    expect(toolOutputView({ output: { output: 3 } }).blocks).toEqual([]);
  });
});

describe("an input or output of {}", () => {
  it("when CompozyOS's {} stands for an unreported input or output, then nothing raw is offered", () => {
    const view = toolOutputView({ input: {}, output: {} });
    expect(view).not.toHaveProperty("rawInput");
    expect(view).not.toHaveProperty("rawOutput");
    expect(view.blocks).toEqual([]);
    const real = toolOutputView({
      input: { path: "a.ts" },
      output: { raw_output: "x" },
    });
    expect(real.rawInput).toEqual({ path: "a.ts" });
  });
});
