// The one zod every reader of the contract uses (ADR 0216): zod/mini, whose functions a
// bundler can drop one by one, where zod's classic methods bring the whole library into the
// SPA's first screen. Unlike the classic entry it loads no messages by itself: English is
// set here, once, for the daemon, the CLI and the SPA alike.
import { z } from "zod/mini";

z.config(z.locales.en());

export { z };
