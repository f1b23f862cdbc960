import { describe, expect, it } from "vitest";
import { createLineSplitter } from "./ndjson-lines";

function collect(maxLineBytes?: number) {
  const lines: string[] = [];
  const oversized: string[] = [];
  const splitter = createLineSplitter(
    { line: (text) => lines.push(text), oversized: (prefix) => oversized.push(prefix) },
    maxLineBytes,
  );
  return { lines, oversized, splitter };
}

describe("NDJSON line splitting", () => {
  it("when lines arrive split across chunks, including inside a UTF-8 character, then they come out whole", () => {
    const { lines, splitter } = collect();
    const bytes = Buffer.from('{"a":"héllo"}\r\n{"b":2}\n{"c"', "utf8");
    for (let i = 0; i < bytes.length; i += 3) splitter.push(bytes.subarray(i, i + 3));
    splitter.push(Buffer.from(":3}"));
    splitter.end();
    expect(lines).toEqual(['{"a":"héllo"}', '{"b":2}', '{"c":3}']);
  });

  it("when a line never ends and passes the limit, then it is reported once and skipped to its newline", () => {
    const { lines, oversized, splitter } = collect(10);
    splitter.push(Buffer.from("0123456789abcdef"));
    splitter.push(Buffer.from("more junk\nok\n"));
    expect(oversized).toEqual(["0123456789abcdef"]);
    expect(lines).toEqual(["ok"]);
  });
});
