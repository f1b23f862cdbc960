// `GET …/history` as a streamed body (ADR 0117): the answer CompozyOS gives, built a batch
// of rows at a time, so the daemon holds one batch of one group, never the session. The
// groups are fixed when the answer starts; each pull reads the next batch with a fresh
// statement (better-sqlite3 allows no open cursor while the ledger writes).
import type { Context } from "hono";
import { DaemonHistory } from "../../src/contract/history";
import {
  type EventFilter,
  HISTORY_BATCH,
  type SessionReader,
} from "../domain/session-recorder-api";
import { pulledBody } from "./pulled-body";
import type { Responder } from "./respond";

export function historyBody(
  c: Context,
  deps: { reader: SessionReader; respond: Responder },
  sessionId: string,
  query: EventFilter,
): ReadableStream<Uint8Array> {
  const { reader, respond } = deps;
  const groups = reader.historyGroups(sessionId, query);
  let index = 0;
  let started = false;
  let done = false;
  /** Inside a group: the sequence its next batch starts after, and how many it has sent. */
  let open: { after: number; sent: number } | undefined;

  /** The next piece of JSON text, or undefined once the answer is complete. */
  function next(): string | undefined {
    if (done) return undefined;
    let text = started ? "" : '{"history":[';
    started = true;
    const group = groups[index];
    if (group === undefined) {
      done = true;
      return `${text}]}`;
    }
    if (open === undefined) {
      open = { after: 0, sent: 0 };
      text += `${index === 0 ? "" : ","}{"turn_id":${JSON.stringify(group.turn_id)},"events":[`;
    }
    const batch = reader.historyGroupEvents(sessionId, query, group, open.after, HISTORY_BATCH);
    respond.check(c, DaemonHistory, { history: [{ turn_id: group.turn_id, events: batch }] });
    for (const event of batch) {
      text += `${open.sent === 0 ? "" : ","}${JSON.stringify(event)}`;
      open.sent += 1;
    }
    if (batch.length < HISTORY_BATCH) {
      text += "]}";
      index += 1;
      open = undefined;
    } else {
      open.after = batch[batch.length - 1]?.sequence ?? open.after;
    }
    return text;
  }

  return pulledBody(next);
}
