import { describe, expect, it } from "vitest";
import { FlagError, parseDaemonFlags } from "../config/flags";

const parse = (argv: string[], env: Record<string, string> = {}) =>
  parseDaemonFlags(argv, env, "/w");

describe("the --upstream flags", () => {
  it("when --upstream names an http(s) origin, then upstream mode is on with that origin", () => {
    expect(parse(["--upstream", "http://127.0.0.1:2123"]).upstream?.url.origin).toBe(
      "http://127.0.0.1:2123",
    );
    expect(parse(["--upstream", "https://box.lan/"]).upstream?.url.href).toBe("https://box.lan/");
    expect(parse(["--upstream", "http://[::1]:2123"]).upstream?.url.host).toBe("[::1]:2123");
    expect(parse([]).upstream).toBeUndefined();
  });

  it("when the token comes from --upstream-token or TIDELINE_UPSTREAM_TOKEN, then the flag wins", () => {
    const url = ["--upstream", "http://127.0.0.1:2123"];
    expect(parse([...url, "--upstream-token", "abc.DEF-_~+/=="]).upstream?.token).toBe(
      "abc.DEF-_~+/==",
    );
    expect(parse(url, { TIDELINE_UPSTREAM_TOKEN: "from-env" }).upstream?.token).toBe("from-env");
    expect(
      parse([...url, "--upstream-token", "flag"], { TIDELINE_UPSTREAM_TOKEN: "env" }).upstream
        ?.token,
    ).toBe("flag");
    expect(parse(url).upstream?.token).toBeUndefined();
  });

  it("when the URL is not an http(s) origin, then startup fails with one line naming the problem", () => {
    const cases: [string, RegExp][] = [
      ["127.0.0.1:2123", /must be an http\(s\) URL/],
      ["not a url", /must be an http\(s\) URL/],
      ["ftp://127.0.0.1:2123", /scheme "ftp:"/],
      ["file:///etc/passwd", /scheme "file:"/],
      ["javascript:alert(1)", /scheme "javascript:"/],
      ["http://user:pw@127.0.0.1:2123", /credentials/],
      ["http://127.0.0.1:2123/api", /origin only/],
      ["http://127.0.0.1:2123/?x=1", /origin only/],
      ["http://127.0.0.1:2123/#x", /origin only/],
    ];
    for (const [value, message] of cases) {
      let thrown: unknown;
      try {
        parse(["--upstream", value]);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, value).toBeInstanceOf(FlagError);
      expect((thrown as Error).message, value).toMatch(message);
      expect((thrown as Error).message).not.toContain("\n");
    }
  });

  it("when the token could split a header, then startup refuses it", () => {
    for (const token of ["a b", "a\r\nX-Evil: 1", "tok;en", "tök"]) {
      expect(() => parse(["--upstream", "http://127.0.0.1:1", "--upstream-token", token])).toThrow(
        /--upstream-token must be a bearer token/,
      );
    }
  });

  it("when upstream mode is combined with agent flags, a token alone or its own port, then startup refuses", () => {
    const url = ["--upstream", "http://127.0.0.1:2123"];
    expect(() => parse([...url, "--agent", "x=node a.js"])).toThrow(/--agent cannot be used/);
    expect(() => parse([...url, "--context-window", "x=1000"])).toThrow(/--context-window/);
    expect(() => parse(["--upstream-token", "t"])).toThrow(/needs --upstream/);
    expect(() => parse(["--upstream", "http://localhost:4820"])).toThrow(/own port/);
  });

  it("when upstream mode binds off loopback, then Tideline's own --token is still required", () => {
    const url = ["--upstream", "http://127.0.0.1:2123"];
    expect(() => parse([...url, "--host", "0.0.0.0"])).toThrow(/needs a token/);
    const config = parse([
      ...url,
      "--host",
      "0.0.0.0",
      "--token",
      "browser-token-long-enough",
      "--upstream-token",
      "up",
    ]);
    expect(config.token).toBe("browser-token-long-enough");
    expect(config.upstream?.token).toBe("up");
  });
});
