import { describe, expect, it } from "vitest";
import { agentEnvironment } from "./agent-env";

describe("agentEnvironment", () => {
  it("when the daemon holds its token, the upstream credential and other TIDELINE_ settings, then none reaches the agent, whatever the case", () => {
    const env = agentEnvironment({
      TIDELINE_TOKEN: "daemon-secret",
      TIDELINE_UPSTREAM_TOKEN: "upstream-secret",
      TIDELINE_API: "http://127.0.0.1:4820",
      tideline_token: "lower-case-secret",
      TIDELINE_AGENT_GROUP: "a-stale-marker",
      PATH: "/usr/bin",
    });
    expect(env).toEqual({ PATH: "/usr/bin" });
  });

  it("when an adapter needs its keys, home, proxies and locale, then they are kept as they are", () => {
    const parent = {
      PATH: "/opt/node22/bin:/usr/bin",
      HOME: "/home/me",
      ANTHROPIC_API_KEY: "sk-ant",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
      OPENAI_API_KEY: "sk-oa",
      CODEX_HOME: "/home/me/.codex",
      HTTPS_PROXY: "http://proxy:3128",
      no_proxy: "localhost",
      LANG: "C.UTF-8",
      NOT_TIDELINE_TOKEN: "kept: the prefix is the rule",
    };
    expect(agentEnvironment(parent)).toEqual(parent);
  });
});
