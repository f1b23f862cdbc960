import { describe, expect, it } from "vitest";
import type { Entry } from "../contract/transcript";
import { describeSpan } from "./span";

const entry = (sequence: number, message: Entry["message"]): Entry => ({
  start_sequence: sequence,
  sequence,
  message,
});

describe("the span's first entry", () => {
  it("when state lines come before the first turn, then the span links to the person's first message, not to a state line", () => {
    const span = describeSpan(
      [
        entry(1, {
          id: "event-1",
          role: "system",
          parts: [{ type: "data-compozy-event", data: { type: "runtime", text: "active" } }],
        }),
        entry(2, {
          id: "u1",
          role: "user",
          metadata: { turn_id: "t1" },
          parts: [{ type: "text", text: "Build the export" }],
        }),
      ],
      undefined,
    );
    expect(span.first_entry_id).toBe("u1");
  });

  it("when the span holds no message of the person, then it links to its first entry", () => {
    const span = describeSpan(
      [entry(1, { id: "a1", role: "assistant", parts: [{ type: "text", text: "Done." }] })],
      undefined,
    );
    expect(span.first_entry_id).toBe("a1");
  });
});
