// `/help` lists the compaction audit's demo scenarios, so a person finds them without the README.
import { describe, expect, it } from "vitest";
import { sharedDemoAgent, textOf, updatesOf } from "../testing/demo-agent-client";

const agent = sharedDemoAgent({ capability: "advertised" });

describe("the audit scenarios in /help", () => {
  it("when /help is asked, then lossy, keep-pinned and forgetful are listed with what they do", async () => {
    const sessionId = await agent.newSession();
    const { frames } = await agent.turn(sessionId, "/help");
    const reply = updatesOf(frames, "agent_message_chunk")
      .map((update) => textOf(update.content))
      .join("");
    expect(reply).toContain("`/demo lossy`");
    expect(reply).toContain("later instructions, files and your last request are dropped");
    expect(reply).toContain("`/demo keep-pinned`");
    expect(reply).toContain("`/demo forgetful`");
  });
});
