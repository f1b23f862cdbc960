import type { RequestPermissionRequest } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { decidePermission } from "./permission-policy";

function request(kinds: string[]): RequestPermissionRequest {
  return {
    sessionId: "s",
    toolCall: { toolCallId: "call-1" },
    options: kinds.map((kind, index) => ({ optionId: `o${index}`, name: kind, kind })),
  } as RequestPermissionRequest;
}

describe("the default permission policy", () => {
  it("when reject options are offered, then the first one is selected", () => {
    expect(decidePermission(request(["allow_once", "reject_always", "reject_once"]))).toEqual({
      outcome: { outcome: "selected", optionId: "o1" },
    });
  });

  it("when no reject option is offered, then the request is cancelled; nothing is ever allowed", () => {
    expect(decidePermission(request(["allow_once", "allow_always"]))).toEqual({
      outcome: { outcome: "cancelled" },
    });
    expect(decidePermission(request([]))).toEqual({ outcome: { outcome: "cancelled" } });
  });
});
