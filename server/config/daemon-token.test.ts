import { describe, expect, it } from "vitest";
import { MIN_TOKEN_LENGTH, resolveDaemonToken, tokenNotices } from "./daemon-token";
import { FlagError, parseDaemonFlags } from "./flags";

describe("the daemon's token", () => {
  it("when --token auto is given, then a fresh 43-character URL-safe token is made each time", () => {
    const a = parseDaemonFlags(["--token", "auto"], {}, "/w");
    const b = parseDaemonFlags(["--token", "auto"], {}, "/w");
    expect(a.tokenSource).toBe("auto");
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
  });

  it("when a token is shorter than the minimum, then the daemon refuses it, from the flag or the env", () => {
    const short = "x".repeat(MIN_TOKEN_LENGTH - 1);
    expect(() => parseDaemonFlags(["--token", short], {}, "/w")).toThrow(FlagError);
    expect(() => parseDaemonFlags([], { TIDELINE_TOKEN: short }, "/w")).toThrow(
      /TIDELINE_TOKEN must be at least 16/,
    );
    expect(() => parseDaemonFlags(["--token", "s3cret"], {}, "/w")).toThrow(/--token auto/);
  });

  it("when a token holds whitespace or control characters, then it is refused", () => {
    expect(() => resolveDaemonToken("a-token-with a-space", undefined)).toThrow(/spaces/);
    expect(() => resolveDaemonToken(undefined, "a-token-with\u001b[2J-esc")).toThrow(/control/);
  });

  it("when the token comes from --token, then start-up warns that ps shows it; from the env it says nothing; auto prints the URL to open", () => {
    const flag = parseDaemonFlags(["--token", "f".repeat(20)], {}, "/w");
    expect(tokenNotices(flag, "http://127.0.0.1:4838")).toEqual([
      expect.stringMatching(/--token is visible .*ps.*prefer TIDELINE_TOKEN/),
    ]);
    const env = parseDaemonFlags([], { TIDELINE_TOKEN: "e".repeat(20) }, "/w");
    expect(tokenNotices(env, "http://x")).toEqual([]);
    const auto = parseDaemonFlags(["--token", "auto"], {}, "/w");
    expect(tokenNotices(auto, "http://127.0.0.1:4838")).toEqual([
      `tideline: open http://127.0.0.1:4838/#token=${auto.token}`,
    ]);
  });
});
