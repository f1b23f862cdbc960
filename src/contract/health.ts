// `GET /api/health`: the reference daemon's liveness probe. CompozyOS has no such route,
// so a client must not depend on it to talk to a CompozyOS daemon.
import { z } from "./zod";

export const Health = z.object({ status: z.literal("ok"), version: z.string() });
export type Health = z.infer<typeof Health>;
