// One identity per send: `message_id` names the user message in the transcript and
// `idempotency_key` names this submission. A retry of the same send reuses both, so
// CompozyOS answers it with the first attempt's result instead of running it twice; a
// new send (even of the same text) gets new ones.
import { randomId } from "../lib/random-id";

export type PromptSend = {
  message: string;
  message_id: string;
  idempotency_key: string;
};

export function newPromptSend(message: string): PromptSend {
  return { message, message_id: randomId(), idempotency_key: randomId() };
}
