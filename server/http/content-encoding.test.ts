import { describe, expect, it } from "vitest";
import { chooseEncoding, type StaticEncoding } from "./content-encoding";

const variants = (...names: StaticEncoding[]) => new Set<StaticEncoding>(names);
const all = variants("br", "gzip", "identity");
const gzipOnly = variants("gzip", "identity");
const none = variants("identity");

describe("choosing a static file's encoding", () => {
  it.each([
    ["gzip, deflate, br, zstd", all, "br"],
    ["gzip, deflate, br", gzipOnly, "gzip"],
    ["br", none, "identity"],
    ["gzip;q=1, br;q=0.5", all, "gzip"],
    ["br;q=0, gzip", all, "gzip"],
    ["br;q=0.8, gzip;q=0.8", all, "br"],
    ["*", all, "br"],
    ["*;q=0.5, br;q=0.1", all, "gzip"],
    ["identity", all, "identity"],
    ["deflate", all, "identity"],
    ["br;q=0, gzip;q=0", all, "identity"],
    ["BR;Q=1", all, "br"],
    ["x-gzip", all, "gzip"],
    ["  br ; q=0.9 ,gzip;q=0.95", all, "gzip"],
  ] as const)("when Accept-Encoding is %j and %o exist, then %s", (header, available, expected) => {
    expect(chooseEncoding(header, available)).toBe(expected);
  });

  it("when there is no header or it is blank, then identity", () => {
    expect(chooseEncoding(undefined, all)).toBe("identity");
    expect(chooseEncoding("   ", all)).toBe("identity");
  });

  it("when a weight is malformed, then that item is ignored, not read as q=1", () => {
    expect(chooseEncoding("br;q=abc, gzip", all)).toBe("gzip");
    expect(chooseEncoding("br;q=2", all)).toBe("identity");
    expect(chooseEncoding("br;q=-1", all)).toBe("identity");
    expect(chooseEncoding(",,;;,=", all)).toBe("identity");
  });

  it("when identity is refused and nothing else is available, then identity anyway (readable beats 406)", () => {
    expect(chooseEncoding("identity;q=0", none)).toBe("identity");
    expect(chooseEncoding("*;q=0", none)).toBe("identity");
    expect(chooseEncoding("identity;q=0, br", all)).toBe("br");
  });
});
