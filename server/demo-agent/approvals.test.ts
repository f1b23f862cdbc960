// `/demo approvals` against the demo agent as a real process: it asks before a file edit and
// before a command, with the real adapters' option kinds, and acts on the answer.
import { afterAll, describe, expect, it } from "vitest";
import {
  type DemoAgentClient,
  frameSequence,
  startDemoAgent,
  textOf,
  updatesOf,
} from "../testing/demo-agent-client";
import { REFUSED_OUTPUT } from "./reply-stream";

const agents: DemoAgentClient[] = [];
afterAll(async () => {
  for (const agent of agents) await agent.close();
});

async function agentAnswering(optionIds: Array<string | "cancelled">) {
  const answers = [...optionIds];
  const agent = await startDemoAgent({
    answerPermission: () => {
      const next = answers.shift() ?? "cancelled";
      return next === "cancelled"
        ? { outcome: { outcome: "cancelled" } }
        : { outcome: { outcome: "selected", optionId: next } };
    },
  });
  agents.push(agent);
  return agent;
}

const replyText = (frames: Parameters<typeof updatesOf>[0]) =>
  updatesOf(frames, "agent_message_chunk")
    .map((update) => textOf(update?.content))
    .join("");

describe("/demo approvals", () => {
  it("when both are allowed, then it asks for an edit with a diff, then for a command, each with allow once, allow always and reject, and runs both", async () => {
    const agent = await agentAnswering(["allow-once", "allow-with-updates"]);
    const sessionId = await agent.newSession();
    const { frames, response } = await agent.turn(sessionId, "/demo approvals");
    expect(response.stopReason).toBe("end_turn");
    const [edit, command] = agent.permissionRequests;
    expect(edit?.toolCall).toMatchObject({
      kind: "edit",
      status: "pending",
      title: "Edit src/features/context/meter.tsx",
      locations: [{ path: "src/features/context/meter.tsx" }],
    });
    expect(edit?.toolCall.content?.[0]).toMatchObject({
      type: "diff",
      path: "src/features/context/meter.tsx",
    });
    expect(command?.toolCall).toMatchObject({ kind: "execute", status: "pending" });
    expect(command?.toolCall.rawInput).toMatchObject({
      command: "npm test -- src/features/context",
    });
    for (const request of [edit, command]) {
      expect(request?.options.map((option) => option.kind)).toEqual([
        "allow_once",
        "allow_always",
        "reject_once",
      ]);
      expect(request?.options.map((option) => option.name)[0]).toBe("Yes");
    }
    expect(frameSequence(frames)).toEqual([
      "agent_thought_chunk+",
      "tool_call:pending",
      "session/request_permission",
      "tool_call_update:in_progress",
      "tool_call_update:completed",
      "tool_call:pending",
      "session/request_permission",
      "tool_call_update:in_progress",
      "tool_call_update:completed",
      "agent_message_chunk+",
      "usage_update",
      "response:end_turn",
    ]);
    expect(replyText(frames)).toContain("the context tests pass");
  });

  it("when the edit is refused, then it fails with the adapter's words and the reply says what did not change", async () => {
    const agent = await agentAnswering(["reject", "allow-once"]);
    const sessionId = await agent.newSession();
    const { frames } = await agent.turn(sessionId, "/demo approvals");
    const [refusedEdit] = updatesOf(frames, "tool_call_update").filter(
      (update) => update?.status === "failed",
    );
    expect(refusedEdit?.rawOutput).toEqual({ output: REFUSED_OUTPUT });
    expect(replyText(frames)).toContain("You declined the edit");
  });

  it("when an answer names an option that was never offered, then it counts as a refusal", async () => {
    const agent = await agentAnswering(["allow-once", "allow-everything-forever"]);
    const sessionId = await agent.newSession();
    const { frames } = await agent.turn(sessionId, "/demo approvals");
    expect(replyText(frames)).toContain("You declined the test run");
  });

  it("when the client answers cancelled, then the tool fails as cancelled and the turn stops", async () => {
    const agent = await agentAnswering(["cancelled"]);
    const sessionId = await agent.newSession();
    const { frames, response } = await agent.turn(sessionId, "/demo approvals");
    expect(response.stopReason).toBe("cancelled");
    expect(agent.permissionRequests).toHaveLength(1);
    expect(updatesOf(frames, "tool_call_update").at(-1)).toMatchObject({ status: "failed" });
  });

  it("when /help is asked for, then approvals is listed", async () => {
    const agent = await agentAnswering([]);
    const sessionId = await agent.newSession();
    const { frames } = await agent.turn(sessionId, "/help");
    expect(replyText(frames)).toMatch(
      /approvals.*permission to edit a file, then to run a command/,
    );
  });
});
