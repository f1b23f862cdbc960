// The SPA runs under a CSP without 'unsafe-eval'. zod 4 probes `new Function` to decide
// whether to compile fast parsers, and Chromium reports that probe as a CSP violation in
// the console; jitless mode skips the probe (the daemon, with no CSP, keeps the JIT).
import { z } from "../contract/zod";

z.config({ jitless: true });
