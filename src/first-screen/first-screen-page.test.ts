// @vitest-environment jsdom
// The first screen a session link's page carries (ADR 0217): the newest entries drawn as the
// timeline draws them, nothing in it to follow or focus, every transcript string escaped,
// and no first screen at all where a row could not be drawn faithfully.
import { describe, expect, it } from "vitest";
import { FIRST_SCREEN_ENTRIES, firstScreenHtml } from "./first-screen-page";
import { MAX_PART_CHARS } from "./first-screen-rows";

let sequence = 0;
function entry(role: "user" | "assistant" | "system", parts: unknown[], metadata?: unknown) {
  sequence += 1;
  return {
    message: { id: `m-${sequence}`, role, parts, ...(metadata === undefined ? {} : { metadata }) },
    start_sequence: sequence,
    sequence,
  };
}
const say = (role: "user" | "assistant", text: string) => entry(role, [{ type: "text", text }]);
const session = { id: "ses_abc123", name: "Refactor", agent_name: "demo", state: "active" };

function draw(entries: unknown[], over: Partial<typeof session> & Record<string, unknown> = {}) {
  return firstScreenHtml({ ...session, ...over }, entries);
}

describe("the first screen of a session link", () => {
  it("when the newest entries are messages and a tool call, then it draws them as the timeline does, in a frame hidden from assistive technology", () => {
    const html = draw([
      say("user", "Please **refine** the ledger"),
      entry("assistant", [
        { type: "reasoning", text: "secret thoughts" },
        { type: "text", text: "Plan:\n\n- read\n- fold\n\n```ts\nconst x = 1;\n```\n" },
        { type: "tool-read", toolCallId: "c1", title: "Read src/a.ts", state: "output-available" },
      ]),
    ]);
    expect(html).toBeDefined();
    expect(html).toMatch(
      /^<div class="[^"]*fixed inset-0[^"]*" id="first-screen" aria-hidden="true">/,
    );
    expect(html).toContain("<p>Please <strong>refine</strong> the ledger</p>");
    expect(html).toContain(">You</p>");
    expect(html).toContain(">Agent</p>");
    expect(html).toContain("☆ Keep this");
    // Thinking is collapsed: its words are not on the screen.
    expect(html).toContain("Thinking");
    expect(html).not.toContain("secret thoughts");
    expect(html).toContain("<li>read</li>");
    expect(html).toContain('<pre class="tl-code-block"><code>const x = 1;</code></pre>');
    expect(html).toContain(">Read src/a.ts</span>");
    expect(html).toContain(">read</span>");
    expect(html).toContain("done");
    expect(html).toContain("<p");
    expect(html).toContain(">Refactor</p>");
    expect(html).toContain(">demo</span>");
    expect(html?.match(/data-first-screen-entry/g)).toHaveLength(2);
  });

  it("when a transcript string is hostile, then it is text on the screen: no markup, link, image or script of its own", () => {
    const hostile = `<img src=x onerror=alert(1)><script>alert(2)</script>"><iframe src="javascript:alert(3)">`;
    const html =
      draw(
        [
          say("user", hostile),
          say(
            "assistant",
            "[click](javascript:alert(4)) [ok](https://example.com) ![pic](https://example.com/p.png) ![bad](data:image/png;base64,AA) <b onclick=alert(5)>x</b>",
          ),
          entry("assistant", [
            { type: "tool-execute", toolCallId: "c", title: hostile, state: "output-error" },
          ]),
        ],
        { name: `<script>alert(6)</script>`, agent_name: `"><svg onload=alert(7)>` },
      ) ?? "";
    const page = new DOMParser().parseFromString(html, "text/html");
    const elements = [...page.body.querySelectorAll("*")];
    const tags = new Set(elements.map((element) => element.tagName.toLowerCase()));
    for (const tag of ["img", "script", "iframe", "svg", "a", "b", "textarea", "input"]) {
      expect(tags.has(tag), tag).toBe(false);
    }
    // The one button is the message box's Send, disabled and out of the tab order.
    expect(page.querySelectorAll("button:not([disabled])")).toHaveLength(0);
    const attributes = new Set(elements.flatMap((element) => element.getAttributeNames()));
    expect([...attributes].sort()).toEqual([
      "aria-hidden",
      "class",
      "data-first-screen-entry",
      "disabled",
      "id",
      "tabindex",
      "type",
    ]);
    // What was hostile is still there, as text.
    expect(html).toContain("&#x3C;script>alert(6)&#x3C;/script>");
    expect(html).toContain("Image: pic");
    expect(html).toContain("[Image: bad]");
    expect(html).toContain(">ok</span>");
  });

  it("when a reply is long, then it is folded where the SPA folds it, with Show more's count", () => {
    const long = Array.from({ length: 60 }, (_, line) => `line ${line}`).join("\n\n");
    const html = draw([say("assistant", long)]) ?? "";
    expect(html).toContain("line 0");
    expect(html).not.toContain("line 59");
    expect(html).toMatch(/Show more <span[^>]*>\(\d+ more lines\)<\/span>/);
  });

  it("when a run of state lines and a notice end the transcript, then they read as the timeline's lines", () => {
    const state = (value: string, reason?: string) =>
      entry("system", [
        {
          type: "data-compozy-event",
          data: { type: "session.state", state: value, ...(reason ? { reason } : {}) },
        },
      ]);
    const html =
      draw([
        say("user", "hi"),
        state("stopping"),
        state("stopped", "daemon restarted"),
        entry("system", [
          {
            type: "data-compozy-event",
            data: { type: "notice", severity: "warning", title: "Low disk" },
          },
        ]),
      ]) ?? "";
    expect(html).toContain("Session stopping → stopped — daemon restarted");
    expect(html).toContain("Low disk");
  });

  it("when only the newest entries fit, then only they are drawn", () => {
    const entries = Array.from({ length: FIRST_SCREEN_ENTRIES + 10 }, (_, n) =>
      say("user", `turn ${n}`),
    );
    const html = draw(entries) ?? "";
    expect(html.match(/data-first-screen-entry/g)).toHaveLength(FIRST_SCREEN_ENTRIES);
    expect(html).toContain(`turn ${FIRST_SCREEN_ENTRIES + 9}`);
    expect(html).not.toContain("turn 9<");
  });

  it("when a stopped session is drawn, then the message box says so, as the composer does", () => {
    expect(draw([say("user", "hi")], { state: "stopped" })).toContain(
      "This session is stopped. Sending a message resumes it.",
    );
    expect(draw([say("user", "hi")])).not.toContain("This session is stopped");
  });

  it.each([
    [
      "a compaction",
      [{ type: "data-compozy-compaction", data: { compaction_id: "c", status: "completed" } }],
    ],
    [
      "a permission",
      [{ type: "data-compozy-permission", data: { request_id: "r", status: "pending" } }],
    ],
    ["a file", [{ type: "file", mediaType: "image/png", url: "https://example.com/a.png" }]],
    ["an unknown part", [{ type: "mystery", value: 1 }]],
  ])("when the newest entries hold %s, then there is no first screen", (_, parts) => {
    expect(draw([say("user", "hi"), entry("assistant", parts)])).toBeUndefined();
  });

  it("when a message is too long to parse for a picture, then there is no first screen; a long reply is folded first, so it is drawn", () => {
    const long = "x".repeat(MAX_PART_CHARS + 1);
    expect(draw([say("user", long)])).toBeUndefined();
    expect(draw([say("assistant", long)])).toContain("more characters");
  });

  it("when there is nothing to draw, nothing readable, or the session continued elsewhere, then there is no first screen", () => {
    expect(draw([])).toBeUndefined();
    expect(draw([null, 5, "x", { message: { id: 1 } }])).toBeUndefined();
    expect(draw([say("user", "hi")], { derivation: { continued_in: "ses_next" } })).toBeUndefined();
  });

  it("when some entries are malformed, then the readable ones are drawn", () => {
    const html = draw([{ message: "broken" }, say("user", "still here")]) ?? "";
    expect(html).toContain("still here");
    expect(html.match(/data-first-screen-entry/g)).toHaveLength(1);
  });
});
