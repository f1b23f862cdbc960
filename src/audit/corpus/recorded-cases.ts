// The recorded real sessions (server/acp/fixtures/real-agents/), replayed through the
// reference daemon by the real-adapter replay agent, their transcripts saved as served.
import type { Entry } from "../../contract/transcript";
import type { RecordedCase } from "./corpus-types";
import claudeHello from "./recorded/claude-agent-acp-0.101.0.hello-then-compact.json";
import codexHello from "./recorded/codex-acp-2.6.0.hello-then-compact.json";
import codexLoad from "./recorded/codex-acp-2.6.0.session-load.json";

export const RECORDED_CASES: RecordedCase[] = [
  {
    // The fake model's summary: "the user said *hello* and checked that the assistant answers".
    name: "Claude Code 0.101.0: hello, then /compact (summary)",
    entries: claudeHello as Entry[],
    labels: { "last_request:user-6": "kept" },
  },
  {
    // Codex sends no summary: nothing can be checked, so nothing is labelled.
    name: "Codex 2.6.0: hello, then /compact (no summary)",
    entries: codexHello as Entry[],
    labels: {},
  },
  {
    name: "Codex 2.6.0: session/load replays a compaction (no summary)",
    entries: codexLoad as Entry[],
    labels: {},
  },
];
