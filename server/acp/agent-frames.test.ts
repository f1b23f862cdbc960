import { describe, expect, it } from "vitest";
import { classifyFrame, describeRpcError, requestIdKey } from "./agent-frames";

const UPDATE = "session/update";

describe("classifyFrame", () => {
  it("when a line is blank or whitespace, then it is nothing", () => {
    expect(classifyFrame("", UPDATE)).toEqual({ kind: "blank" });
    expect(classifyFrame(" \t ", UPDATE)).toEqual({ kind: "blank" });
  });

  it("when a line is not JSON, then it is invalid with the parser's reason", () => {
    const frame = classifyFrame("{not json", UPDATE);
    expect(frame.kind).toBe("invalid");
    expect(frame.kind === "invalid" && frame.reason).toMatch(/^not JSON: /);
  });

  it("when a line is JSON but not JSON-RPC 2.0, then it is invalid", () => {
    for (const line of ["[]", "null", "42", '"text"', '{"jsonrpc":"1.0","method":"x"}', "{}"]) {
      expect(classifyFrame(line, UPDATE)).toEqual({
        kind: "invalid",
        reason: "not a JSON-RPC 2.0 message",
      });
    }
  });

  it("when a session/update has no id, then it is an update; with an id, a call", () => {
    const params = { sessionId: "s", update: { sessionUpdate: "agent_message_chunk" } };
    expect(
      classifyFrame(JSON.stringify({ jsonrpc: "2.0", method: UPDATE, params }), UPDATE),
    ).toEqual({ kind: "update", params });
    expect(
      classifyFrame(JSON.stringify({ jsonrpc: "2.0", id: 3, method: UPDATE, params }), UPDATE),
    ).toEqual({ kind: "call", method: UPDATE, id: 3, params });
  });

  it("when a response has a string or number id and a result or error, then it is keyed by type", () => {
    const number = classifyFrame('{"jsonrpc":"2.0","id":1,"result":{}}', UPDATE);
    const text = classifyFrame('{"jsonrpc":"2.0","id":"1","error":{"code":1}}', UPDATE);
    expect(number.kind === "response" && number.key).toBe("number:1");
    expect(text.kind === "response" && text.key).toBe("string:1");
  });

  it("when a message has neither a method nor a usable response shape, then it is invalid", () => {
    const reason = "JSON-RPC message is neither a request nor a response";
    for (const line of [
      '{"jsonrpc":"2.0","id":1}',
      '{"jsonrpc":"2.0","id":null,"result":{}}',
      '{"jsonrpc":"2.0","id":{"a":1},"result":{}}',
      '{"jsonrpc":"2.0","method":7}',
    ]) {
      expect(classifyFrame(line, UPDATE)).toEqual({ kind: "invalid", reason });
    }
  });
});

describe("requestIdKey and describeRpcError", () => {
  it("when ids are of other types, then they have no key", () => {
    expect(requestIdKey(null)).toBeUndefined();
    expect(requestIdKey(true)).toBeUndefined();
    expect(requestIdKey(0)).toBe("number:0");
  });

  it("when an RPC error is malformed, then it still reads as an agent error", () => {
    expect(describeRpcError({ message: "boom", code: -32000 })).toBe("boom (-32000)");
    expect(describeRpcError({ code: "x" })).toBe("agent error");
    expect(describeRpcError("oops")).toBe("agent error");
  });
});
