// Corpus, part 2: pins, second compactions, summaries that cannot be read, and long or
// noisy spans (Markdown, HTML, chatty turns). User message ids count on across spans, the
// maintenance `/compact` message included: a second span's first message is u4, not u3.
import type { CorpusCase } from "./corpus-types";

export const SESSION_CASES: CorpusCase[] = [
  {
    name: "pinned rule survives the summary",
    pinned: ["u1"],
    spans: [
      {
        turns: [
          {
            user: "Keep this: every database change goes through a numbered migration file, never an ad-hoc ALTER in application code.",
            agent: "Noted.",
          },
          {
            user: "Add a nullable archived_at column to projects.",
            tools: [
              { kind: "edit", input: { file_path: "db/migrations/0042_projects_archived_at.sql" } },
            ],
            agent: "Added migration 0042.",
          },
          { compact: true },
        ],
        summary: `Rules: every database change goes through a numbered migration file, never ad-hoc ALTER statements in application code.
Done: added a nullable archived_at column to projects in db/migrations/0042_projects_archived_at.sql.`,
      },
    ],
    labels: {
      "instruction:u1": "kept",
      "last_request:u2": "kept",
      "path:db/migrations/0042_projects_archived_at.sql": "kept",
    },
  },
  {
    name: "pinned message from an earlier span dropped by the second compaction",
    pinned: ["u1"],
    spans: [
      {
        turns: [
          {
            user: "Keep this: answer in British English and never push to the main branch directly.",
            agent: "Understood.",
          },
          {
            user: "Set up the lint job in the CI workflow .github/workflows/ci.yml.",
            agent: "Added the lint job.",
          },
          { compact: true },
        ],
        summary: `Standing rules: British English; never push to the main branch directly, open a pull request. Done: lint job in .github/workflows/ci.yml.`,
      },
      {
        turns: [
          {
            user: "Now add a job that runs the unit tests on Node 20 and 22.",
            agent: "Added a test matrix.",
          },
          { compact: true },
        ],
        summary: `CI now has a lint job and a unit test job with a Node 20 / 22 matrix.`,
      },
    ],
    labels: {
      "instruction:u1": "dropped",
      "last_request:u4": "kept",
    },
  },
  {
    name: "second compaction carries the earlier rules forward",
    pinned: ["u1"],
    spans: [
      {
        turns: [
          {
            user: "Keep this: all money amounts are integer cents, never floats.",
            agent: "Noted.",
          },
          {
            user: "Add a discount field to orders.",
            tools: [{ kind: "edit", input: { file_path: "src/orders/order.ts" } }],
            agent: "Added discount_cents.",
          },
          { compact: true },
        ],
        summary: `Rule: money amounts are integer cents, never floats. Orders got a discount field (discount_cents) in src/orders/order.ts.`,
      },
      {
        turns: [
          {
            user: "Show the discount on the receipt page.",
            tools: [{ kind: "edit", input: { file_path: "src/receipts/receipt.tsx" } }],
            agent: "The receipt shows the discount.",
          },
          { compact: true },
        ],
        summary: `Rule kept: money amounts are integer cents, never floats. Orders have discount_cents; the receipt page (receipt.tsx) shows the discount.`,
      },
    ],
    labels: {
      "instruction:u1": "kept",
      "last_request:u4": "kept",
      "path:src/receipts/receipt.tsx": "kept",
    },
  },
  {
    name: "Codex-style compaction without a summary",
    spans: [
      {
        turns: [
          {
            user: "Refactor the scheduler to use a priority queue.",
            tools: [{ kind: "edit", input: { file_path: "core/scheduler.py" } }],
            agent: "Done.",
          },
          { compact: true },
        ],
        summary: null,
      },
    ],
    labels: {},
  },
  {
    name: "failed compaction has nothing to check",
    spans: [
      {
        turns: [
          { user: "Summarise the open issues labelled bug.", agent: "There are 12." },
          { compact: true },
        ],
        summary: "partial text before the failure",
        status: "failed",
      },
    ],
    labels: {},
  },
  {
    name: "chatty turns: greetings and thanks carry nothing",
    spans: [
      {
        turns: [
          { user: "hi!", agent: "Hello! What can I do?" },
          {
            user: "Add dark mode support to the settings page using the prefers-color-scheme media query.",
            tools: [{ kind: "edit", input: { file_path: "src/settings/settings.css" } }],
            agent: "Done.",
          },
          { user: "thanks, that's great", agent: "You're welcome." },
          { compact: true },
        ],
        summary: `Added dark mode support to the settings page (settings.css) with the prefers-color-scheme media query.`,
      },
    ],
    labels: {
      "instruction:u1": "kept",
      "instruction:u2": "kept",
      "last_request:u3": "kept",
      "path:src/settings/settings.css": "kept",
    },
  },
  {
    name: "Markdown and HTML in messages and summary",
    spans: [
      {
        turns: [
          {
            user: "Escape the `<script>` tags in **comment bodies** before rendering: `<img src=x onerror=alert(1)>` must show as text.",
            tools: [{ kind: "edit", input: { file_path: "src/comments/render-comment.ts" } }],
            agent:
              "Comment bodies are escaped in `renderComment` now; `renderComment` has a test for the onerror payload.",
          },
          { compact: true },
        ],
        summary: `## Work
- **Escaping**: comment bodies are escaped before rendering, so <script> tags and an <img onerror> payload show as text (render-comment.ts, renderComment).`,
      },
    ],
    labels: {
      "last_request:u1": "kept",
      "path:src/comments/render-comment.ts": "kept",
      "identifier:renderComment": "kept",
    },
  },
  {
    name: "identifier repeated across turns is lost",
    spans: [
      {
        turns: [
          {
            user: "Why is FEATURE_NEW_CHECKOUT off in staging?",
            agent:
              "FEATURE_NEW_CHECKOUT is read from config/flags.yaml, where staging sets it false.",
          },
          {
            user: "Turn it on for staging only.",
            tools: [{ kind: "edit", input: { file_path: "config/flags.yaml" } }],
            agent: "Enabled it for staging.",
          },
          { compact: true },
        ],
        summary: `The new checkout flag was off in staging because config/flags.yaml set it false; it is now enabled for staging only.`,
      },
    ],
    labels: {
      "instruction:u1": "kept",
      "last_request:u2": "kept",
      "path:config/flags.yaml": "kept",
      "identifier:FEATURE_NEW_CHECKOUT": "dropped",
    },
  },
  {
    name: "tracker keys and a long last request",
    spans: [
      {
        turns: [
          {
            user: "Start on PAY-311: the refund webhook double-posts.",
            agent: "PAY-311: the webhook handler is not idempotent.",
          },
          {
            user: "For PAY-311, store the provider's event id in a unique column, skip events we have already seen, return 200 for duplicates so the provider stops retrying, and log each skipped duplicate at info level with the event id and the refund id.",
            tools: [{ kind: "edit", input: { file_path: "billing/webhooks/refunds.go" } }],
            agent: "Implementing.",
          },
          { compact: true },
        ],
        summary: `Working on PAY-311 (refund webhook double-posts). Approach: the webhook handler must be idempotent. Edits in billing/webhooks/refunds.go.`,
      },
    ],
    labels: {
      "instruction:u1": "kept",
      "last_request:u2": "dropped",
      "identifier:PAY-311": "kept",
      "path:billing/webhooks/refunds.go": "kept",
    },
  },
  {
    name: "summary in a different order with bullet lists",
    spans: [
      {
        turns: [
          {
            user: "Upgrade React Router to v7 in the admin app.",
            tools: [{ kind: "execute", input: { command: "pnpm add react-router@7" } }],
            agent: "Upgraded.",
          },
          {
            user: "Fix the type errors the upgrade caused.",
            tools: [
              { kind: "execute", input: { command: "pnpm tsc --noEmit" } },
              { kind: "edit", input: { file_path: "admin/src/routes.tsx" } },
            ],
            agent: "Fixed 4 errors in routes.tsx.",
          },
          { compact: true },
        ],
        summary: `- Fixed the type errors from the upgrade (4, all in admin/src/routes.tsx); pnpm tsc --noEmit is clean.
- Upgraded React Router to v7 in the admin app (pnpm add react-router@7).`,
      },
    ],
    labels: {
      "instruction:u1": "kept",
      "last_request:u2": "kept",
      "command:pnpm add react-router@7": "kept",
      "command:pnpm tsc --noEmit": "kept",
      "path:admin/src/routes.tsx": "kept",
    },
  },
  {
    name: "a bare file name in prose is merged with its full path",
    spans: [
      {
        turns: [
          {
            user: "The bug is somewhere in parser.rs, look at the tokenizer.",
            tools: [
              { kind: "read", input: { file_path: "/home/user/lang/src/parser.rs" } },
              { kind: "read", input: { file_path: "/home/user/lang/src/lexer.rs" } },
            ],
            agent: "The lexer drops the last token when the input has no trailing newline.",
          },
          { compact: true },
        ],
        summary: `Bug hunt in the parser: the lexer drops the last token when the input has no trailing newline.`,
      },
    ],
    labels: {
      "last_request:u1": "kept",
      "path:/home/user/lang/src/parser.rs": "dropped",
      "path:/home/user/lang/src/lexer.rs": "dropped",
    },
  },
];
