// Pins (a Tideline extension, ADR 0165): the user messages a person asked to keep across
// compactions, by entry id (the transcript message id). CompozyOS has no such route: a
// client treats its 404 as "pins are not available here".

import { Id, Timestamp } from "./primitives";
import { z } from "./zod";

const Pin = z.object({ entry_id: Id, pinned_at: Timestamp });

/** `GET …/pins`, oldest pin first. */
export const PinList = z.object({ pins: z.array(Pin) });
export type PinList = z.infer<typeof PinList>;

/** `PUT …/pins/{entry_id}` (200, idempotent: pinning again keeps the first time). */
export const PinEnvelope = z.object({ pin: Pin });
export type PinEnvelope = z.infer<typeof PinEnvelope>;

/** An entry id in a path: any message id a client chose, bounded. */
const PIN_ENTRY_ID_MAX = 512;
export const PinEntryId = z.string().check(z.minLength(1)).check(z.maxLength(PIN_ENTRY_ID_MAX));
