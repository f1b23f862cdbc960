// Corpus, part 3: longer spans, where a summary has to choose, and agent-side noise (error
// notices, search calls, many reads).
import type { CorpusCase } from "./corpus-types";

const reads = ["a", "b", "c", "d", "e", "f"].map((name) => ({
  kind: "read",
  input: { file_path: `packages/ui/src/icons/icon-${name}.tsx` },
}));

export const LONG_CASES: CorpusCase[] = [
  {
    name: "eight turns, summary keeps the decisions and the current task",
    spans: [
      {
        turns: [
          { user: "We are building a rate limiter for the public API.", agent: "OK." },
          {
            user: "Use a token bucket per API key, stored in Redis.",
            tools: [{ kind: "edit", input: { file_path: "api/ratelimit/bucket.ts" } }],
            agent: "Token bucket written.",
          },
          {
            user: "Limits: 100 requests per minute for free keys, 1000 for paid keys.",
            agent: "Configured.",
          },
          {
            user: "Return 429 with a Retry-After header when the bucket is empty.",
            tools: [{ kind: "edit", input: { file_path: "api/ratelimit/middleware.ts" } }],
            agent: "Done.",
          },
          {
            user: "Run the load test.",
            tools: [{ kind: "execute", input: { command: "k6 run load/ratelimit.js" } }],
            agent: "p99 latency 4 ms.",
          },
          {
            user: "Good. Now add metrics for rejected requests, a counter labelled by plan.",
            agent: "Adding a counter.",
          },
          { compact: true },
        ],
        summary: `Building a rate limiter for the public API.
Decisions: token bucket per API key stored in Redis (api/ratelimit/bucket.ts); limits 100 requests/minute for free keys and 1000 for paid keys; empty bucket returns 429 with a Retry-After header (api/ratelimit/middleware.ts).
Load test (k6 run load/ratelimit.js): p99 latency 4 ms.
Current task: add metrics for rejected requests, a counter labelled by plan.`,
      },
    ],
    labels: {
      "instruction:u1": "kept",
      "instruction:u2": "kept",
      "instruction:u3": "kept",
      "instruction:u4": "kept",
      "instruction:u5": "kept",
      "last_request:u6": "kept",
      "path:api/ratelimit/bucket.ts": "kept",
      "path:api/ratelimit/middleware.ts": "kept",
      "command:k6 run load/ratelimit.js": "kept",
      "path:load/ratelimit.js": "kept",
    },
  },
  {
    name: "eight turns, summary keeps only the start",
    spans: [
      {
        turns: [
          { user: "We are building a rate limiter for the public API.", agent: "OK." },
          {
            user: "Use a token bucket per API key, stored in Redis.",
            tools: [{ kind: "edit", input: { file_path: "api/ratelimit/bucket.ts" } }],
            agent: "Token bucket written.",
          },
          {
            user: "Limits: 100 requests per minute for free keys, 1000 for paid keys.",
            agent: "Configured.",
          },
          {
            user: "Return 429 with a Retry-After header when the bucket is empty.",
            tools: [{ kind: "edit", input: { file_path: "api/ratelimit/middleware.ts" } }],
            agent: "Done.",
          },
          {
            user: "Now add metrics for rejected requests, a counter labelled by plan.",
            agent: "Adding a counter.",
          },
          { compact: true },
        ],
        summary: `The user is building a rate limiter for the public API using a token bucket per API key in Redis.`,
      },
    ],
    labels: {
      "instruction:u1": "kept",
      "instruction:u2": "kept",
      "instruction:u3": "dropped",
      "instruction:u4": "dropped",
      "last_request:u5": "dropped",
      "path:api/ratelimit/bucket.ts": "dropped",
      "path:api/ratelimit/middleware.ts": "dropped",
    },
  },
  {
    name: "many reads, summary names the folder not the files",
    spans: [
      {
        turns: [
          {
            user: "Make all icons in the UI package accept a size prop.",
            tools: [...reads],
            agent: "All six icon components read; adding `size`.",
          },
          { compact: true },
        ],
        summary: `Task: make every icon in the UI package accept a size prop. Read the six icon components in packages/ui/src/icons; editing next.`,
      },
    ],
    labels: {
      "last_request:u1": "kept",
      "path:packages/ui/src/icons/icon-a.tsx": "dropped",
      "path:packages/ui/src/icons/icon-b.tsx": "dropped",
      "path:packages/ui/src/icons/icon-c.tsx": "dropped",
      "path:packages/ui/src/icons/icon-d.tsx": "dropped",
      "path:packages/ui/src/icons/icon-e.tsx": "dropped",
      "path:packages/ui/src/icons/icon-f.tsx": "dropped",
    },
  },
  {
    name: "an agent error notice and a failed read",
    spans: [
      {
        turns: [
          {
            user: "Open the deployment notes in docs/deploy.md and update the rollback section.",
            tools: [
              {
                kind: "read",
                input: { file_path: "docs/deploy.md" },
                error: "ENOENT: no such file or directory, open 'docs/deploy.md'",
              },
            ],
            errorEvent: "Rate limit reached for the model, retrying in 20s",
            agent: "docs/deploy.md does not exist; the notes are in docs/operations/deploying.md.",
          },
          { compact: true },
        ],
        summary: `The user wants the rollback section of the deployment notes updated. docs/deploy.md was not found (the read failed with ENOENT); the notes live in docs/operations/deploying.md.`,
      },
    ],
    labels: {
      "last_request:u1": "kept",
      "path:docs/deploy.md": "kept",
      "path:docs/operations/deploying.md": "kept",
      "error:call-1": "kept",
      "error:e1": "dropped",
    },
  },
  {
    name: "search tool and python commands",
    spans: [
      {
        turns: [
          {
            user: "Where do we parse the YAML config? Then run the config tests.",
            tools: [
              {
                kind: "search",
                title: "grep yaml.safe_load",
                input: { pattern: "yaml.safe_load", path: "app" },
              },
              { kind: "read", input: { file_path: "app/config/loader.py" } },
              {
                kind: "execute",
                input: { command: ["python", "-m", "pytest", "tests/test_config.py"] },
              },
            ],
            agent: "app/config/loader.py parses it with yaml.safe_load; tests pass.",
          },
          { compact: true },
        ],
        summary: `The YAML config is parsed in app/config/loader.py (yaml.safe_load). Ran python -m pytest tests/test_config.py: all pass.`,
      },
    ],
    labels: {
      "last_request:u1": "kept",
      "path:app": "kept",
      "path:app/config/loader.py": "kept",
      "command:python -m pytest tests/test_config.py": "kept",
      "path:tests/test_config.py": "kept",
    },
  },
];
