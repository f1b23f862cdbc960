// The prompt queue (ADR 0220): messages a person sent while a turn ran, kept in the
// database beside the ledger so a stopped or crashed agent (or a restarted daemon) keeps
// them. Rows are never removed while the session lives: a sent or withdrawn entry keeps
// its status, so acting on it again is a clear "not queued" rather than "not found".

/** CompozyOS `PromptMode` of an entry: after the turn, or replacing it. */
export type InputMode = "queue" | "steer" | "interrupt";
type InputDelivery = "after_turn" | "interrupt_then_prompt";
type InputStatus = "queued" | "sent" | "canceled";

export type SessionInput = {
  id: string;
  session_id: string;
  text: string;
  mode: InputMode;
  delivery: InputDelivery;
  status: InputStatus;
  message_id: string;
  idempotency_key: string;
  /** The turn a steer or interrupt replaces. */
  target_turn_id?: string | undefined;
  enqueued_at: string;
  /** A retry of the send that queued it must ask for the same (prompt idempotency). */
  fingerprint: string;
  /** The `prompt` object the send that queued it was answered with. */
  result: Record<string, unknown>;
};

export type NewSessionInput = Omit<SessionInput, "id" | "status" | "enqueued_at">;

/** New words for a waiting entry, with the identity and answer a retry must match. */
export type InputEdit = {
  text: string;
  message_id: string;
  idempotency_key: string;
  fingerprint: string;
  result: Record<string, unknown>;
};

export interface SessionInputStore {
  /** Stores a queued entry; steer and interrupt entries go before every queued one. */
  enqueue(input: NewSessionInput): SessionInput;
  /** The entries still waiting, in the order they go out. */
  pending(sessionId: string): SessionInput[];
  get(sessionId: string, id: string): SessionInput | undefined;
  /** The entry a send with this idempotency key made, whatever became of it. */
  byKey(sessionId: string, idempotencyKey: string): SessionInput | undefined;
  /** A waiting entry's new words; undefined when it is not waiting. */
  edit(sessionId: string, id: string, edit: InputEdit): SessionInput | undefined;
  /** Moves a waiting entry to the front as steering for `targetTurnId`. */
  promote(
    sessionId: string,
    id: string,
    targetTurnId: string,
    edit: InputEdit,
  ): SessionInput | undefined;
  /** Marks a waiting entry sent or withdrawn; false when it was not waiting. */
  settle(sessionId: string, id: string, status: "sent" | "canceled"): boolean;
  /** Withdraws every waiting `queue` entry (an interrupt drops what was queued). */
  cancelQueued(sessionId: string): number;
}
