// `tideline session prompt <id> <text> [--wait]`: send a prompt; with --wait, follow the
// turn, printing the agent's reply as it arrives (or each event, with -o jsonl).
import { randomUUID } from "node:crypto";
import type { Command } from "commander";
import { PromptResultEnvelope } from "../../src/contract/commands";
import type { SessionEvent } from "../../src/contract/history";
import { isJsonObject } from "../../src/contract/json-value";
import { Id } from "../../src/contract/primitives";
import { z } from "../../src/contract/zod";
import type { CommandContext } from "../context";
import { type CliIo, contextFor } from "../context";
import { DaemonError } from "../daemon-client";
import { terminalText, toJson, toJsonLines, toToon } from "../output";
import { followTurn } from "../turn-follower";

/** The reply text an event carries: the reference daemon's chunks or CompozyOS's messages. */
function replyText(event: SessionEvent): string | undefined {
  if (event.type !== "agent.message_chunk" && event.type !== "agent_message") return undefined;
  if (!isJsonObject(event.content)) return undefined;
  const inner = event.content.content;
  if (isJsonObject(inner) && typeof inner.text === "string") return inner.text;
  return typeof event.content.text === "string" ? event.content.text : undefined;
}

function stopReasonOf(events: readonly SessionEvent[]): string | undefined {
  for (const event of [...events].reverse()) {
    // CompozyOS puts it on the event itself; the reference daemon's rows carry it inside.
    if (typeof event.stop_reason === "string" && event.stop_reason !== "") return event.stop_reason;
    if (!isJsonObject(event.content)) continue;
    const raw = isJsonObject(event.content.raw) ? event.content.raw : event.content;
    if (typeof raw.stop_reason === "string") return raw.stop_reason;
  }
  return undefined;
}

/**
 * The answer of a reference daemon from before the CompozyOS contract (ADR 0050), which took
 * `{text}` only: not a wire shape any more, so not in src/contract; read for that fallback.
 */
const PreContractPromptAnswer = z.object({ prompt_id: Id, status: z.optional(z.string()) });

/** Sends the prompt; the turn it starts (none yet when queued) and the daemon's status. */
async function sendPrompt(
  cx: CommandContext,
  path: string,
  text: string,
): Promise<{ turnId: string | undefined; status: string }> {
  try {
    // CompozyOS's body: the ids make a retried send safe (the daemon runs it once).
    const { prompt } = await cx.client.request(PromptResultEnvelope, "POST", path, {
      message: text,
      message_id: `msg_${randomUUID()}`,
      idempotency_key: `idem_${randomUUID()}`,
    });
    return { turnId: prompt.new_turn_id, status: prompt.status };
  } catch (error) {
    const refusedBody =
      error instanceof DaemonError && error.status === 400 && error.code === "invalid_request";
    if (!refusedBody) throw error;
  }
  const answer = await cx.client.request(PreContractPromptAnswer, "POST", path, { text });
  return { turnId: answer.prompt_id, status: answer.status ?? "accepted" };
}

export function registerSessionPrompt(session: Command, io: CliIo) {
  session
    .command("prompt")
    .description("Send a prompt to a session")
    .argument("<session-id>", "the session")
    .argument("<text>", "the prompt")
    .option("--wait", "wait for the turn to end, printing the reply")
    .addHelpText(
      "after",
      '\nExamples:\n  tideline session prompt 01JD8K3M5V7XQ2R9T4W6Y8Z0AB "Summarize the changes" --wait\n  tideline session prompt 01JD8K3M5V7XQ2R9T4W6Y8Z0AB "/demo fail"',
    )
    .action(
      async (sessionId: string, text: string, options: { wait?: boolean }, command: Command) => {
        const cx = contextFor(command, io);
        const path = await cx.client.sessionPath(sessionId, "/prompt");
        const { turnId, status } = await sendPrompt(cx, path, text);
        const record = { session_id: sessionId, prompt_id: turnId ?? null, status };
        if (!options.wait || turnId === undefined) {
          if (cx.machine({ json: record, toon: ["session_prompt"] })) return;
          // While a turn runs the daemon queues the prompt (ADR 0220): there is no turn yet.
          if (record.status === "queued") {
            return cx.out("Prompt queued: it goes when the running turn ends");
          }
          return cx.out(`Prompt accepted${turnId === undefined ? "" : ` (turn ${turnId})`}`);
        }
        if (cx.format === "human") cx.err(cx.colours.dim(`Prompt accepted (turn ${turnId})`));
        let replied = false;
        const turn = await followTurn(cx.client, sessionId, turnId, (event) => {
          if (cx.format === "jsonl") return cx.out(toJsonLines([event]));
          const reply = cx.format === "human" ? replyText(event) : undefined;
          if (reply !== undefined) {
            // An agent's words, streamed: never its control bytes.
            io.stdout.write(terminalText(reply));
            replied = true;
          }
        });
        const ended = {
          ...record,
          status: "ended",
          stop_reason: stopReasonOf(turn.events) ?? null,
        };
        if (cx.format === "json") return cx.out(toJson(ended));
        if (cx.format === "toon") return cx.out(toToon("session_prompt", ended));
        if (cx.format === "human") {
          if (replied) io.stdout.write("\n");
          cx.err(cx.colours.dim(`Turn ended: ${ended.stop_reason ?? "no stop reason reported"}`));
        }
      },
    );
}
