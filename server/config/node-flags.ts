// The flags Node runs the daemon with: `npm start` and `npm run daemon` pass the same ones
// (package.json; node-flags.test.ts keeps the two in step), and so do the benches and the
// e2e daemon, so they measure what a user runs.
//
// A 512 MB heap limit (ADR 0120): the daemon's memory is bounded by the page it serves,
// never by the session, so it never needs more. V8 sizes its collection steps from the
// limit, and with the default on this 24 GB machine (~4 GB) a daemon that had read ten
// large sessions ended anywhere from 166 to 247 MB; with 512 MB, 162–166 MB every run.
export const DAEMON_NODE_FLAGS = ["--max-old-space-size=512"] as const;
