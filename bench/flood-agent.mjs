#!/usr/bin/env node
// A minimal ACP agent for the benchmarks: raw NDJSON on stdio, no SDK, so what is measured
// is the daemon and not this process. A prompt's text says what to send:
//   stream <chunks> <bytes>   one agent message of <chunks> chunks of <bytes> characters
//   pace <chunks> <bytes> <ms> <id>  the same, <ms> milliseconds apart, as message <id>
//   burst <frames>            <frames> mixed updates (text, thoughts, tool calls, usage)
//   stamp <id>                one tool call whose title carries the wall-clock send time
// anything else gets a one-chunk reply. Writes wait for stdout to drain, like a real agent.
import { once } from "node:events";
import { createInterface } from "node:readline";

const out = process.stdout;
let sessionCounter = 0;

async function send(message) {
  if (!out.write(`${JSON.stringify(message)}\n`)) await once(out, "drain");
}

function update(sessionId, payload) {
  return send({
    jsonrpc: "2.0",
    method: "session/update",
    params: { sessionId, update: payload },
  });
}

const now = () => performance.timeOrigin + performance.now();

async function stream(sessionId, chunks, bytes, messageId) {
  const text = "x".repeat(Math.max(1, bytes - 1)).concat(" ");
  for (let i = 0; i < chunks; i += 1) {
    await update(sessionId, {
      sessionUpdate: "agent_message_chunk",
      messageId,
      content: { type: "text", text },
    });
  }
}

async function paced(sessionId, chunks, bytes, gapMs, messageId) {
  const text = "x".repeat(Math.max(1, bytes - 1)).concat(" ");
  for (let i = 0; i < chunks; i += 1) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    await update(sessionId, {
      sessionUpdate: "agent_message_chunk",
      messageId,
      content: { type: "text", text },
    });
  }
}

async function burst(sessionId, frames, turn) {
  for (let i = 0; i < frames; i += 1) {
    const step = i % 50;
    if (step === 0) {
      await update(sessionId, {
        sessionUpdate: "tool_call",
        toolCallId: `t${turn}-${i}`,
        title: `Read src/file-${i}.ts`,
        kind: "read",
        status: "pending",
      });
    } else if (step === 1) {
      await update(sessionId, {
        sessionUpdate: "tool_call_update",
        toolCallId: `t${turn}-${i - 1}`,
        status: "completed",
      });
    } else if (step === 49) {
      await update(sessionId, { sessionUpdate: "usage_update", used: 1000 + i, size: 200_000 });
    } else if (step < 10) {
      await update(sessionId, {
        sessionUpdate: "agent_thought_chunk",
        messageId: `th${turn}-${Math.floor(i / 50)}`,
        content: { type: "text", text: "thinking about the next step " },
      });
    } else {
      await update(sessionId, {
        sessionUpdate: "agent_message_chunk",
        messageId: `m${turn}-${Math.floor(i / 50)}`,
        content: { type: "text", text: "Here is some streamed text. " },
      });
    }
  }
}

let turns = 0;
async function prompt(id, params) {
  const sessionId = params.sessionId;
  const text = (params.prompt ?? [])
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("")
    .trim();
  const [verb, a, b, c, d] = text.split(/\s+/);
  turns += 1;
  if (verb === "stream") await stream(sessionId, Number(a), Number(b), `reply-${turns}`);
  else if (verb === "pace")
    await paced(sessionId, Number(a), Number(b), Number(c), d ?? `reply-${turns}`);
  else if (verb === "burst") await burst(sessionId, Number(a), turns);
  else if (verb === "stamp") {
    await update(sessionId, {
      sessionUpdate: "tool_call",
      toolCallId: `stamp-${a}`,
      title: `stamp ${a} ${now().toFixed(3)}`,
      kind: "other",
      status: "completed",
    });
  } else {
    await update(sessionId, {
      sessionUpdate: "agent_message_chunk",
      messageId: `reply-${turns}`,
      content: { type: "text", text: "ok" },
    });
  }
  await send({ jsonrpc: "2.0", id, result: { stopReason: "end_turn" } });
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    continue;
  }
  const { id, method, params } = message;
  if (method === "initialize") {
    await send({
      jsonrpc: "2.0",
      id,
      result: {
        protocolVersion: 1,
        agentCapabilities: { loadSession: false },
        authMethods: [],
        agentInfo: { name: "flood-agent", version: "1.0.0" },
      },
    });
  } else if (method === "session/new") {
    sessionCounter += 1;
    await send({ jsonrpc: "2.0", id, result: { sessionId: `flood-${sessionCounter}` } });
  } else if (method === "session/prompt") {
    // Not awaited: a cancel or a second session's prompt is read while this one streams.
    void prompt(id, params);
  } else if (method === "session/cancel") {
    // nothing to stop: each command is short
  } else if (id !== undefined && method !== undefined) {
    await send({ jsonrpc: "2.0", id, error: { code: -32601, message: `no ${method}` } });
  }
}
