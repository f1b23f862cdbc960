// Corpus, part 1: everyday coding sessions (fixes, refactors, tests) with summaries in the
// shapes agents write them: Claude Code's numbered sections, short prose, bullet lists.
import type { CorpusCase } from "./corpus-types";

export const CODING_CASES: CorpusCase[] = [
  {
    name: "auth retry fix, structured summary keeps everything",
    spans: [
      {
        turns: [
          {
            user: "The login form retries forever when the token endpoint returns 401. Fix the retry loop in src/auth/session.ts.",
            tools: [
              {
                kind: "read",
                title: "Read src/auth/session.ts",
                input: { file_path: "src/auth/session.ts" },
              },
              {
                kind: "edit",
                title: "Edit src/auth/session.ts",
                input: { file_path: "src/auth/session.ts" },
              },
            ],
            agent:
              "The loop in `refreshSession` never checks for 401. I added a check and a `maxRetries` limit of 3.",
          },
          {
            user: "Add a regression test for the 401 case.",
            tools: [
              { kind: "edit", input: { file_path: "src/auth/session.test.ts" } },
              { kind: "execute", input: { command: "npx vitest run src/auth/session.test.ts" } },
            ],
            agent:
              "Added a test: `refreshSession` stops after a 401 and `maxRetries` is respected.",
          },
          { compact: true },
        ],
        summary: `1. Primary request: fix the login form retrying forever on a 401 from the token endpoint; the retry loop lives in src/auth/session.ts.
2. Files: src/auth/session.ts (refreshSession now stops on 401, maxRetries = 3), src/auth/session.test.ts (new regression test for the 401 case).
3. Commands: npx vitest run src/auth/session.test.ts passes.
4. Pending: none.`,
      },
    ],
    labels: {
      "instruction:u1": "kept",
      "last_request:u2": "kept",
      "path:src/auth/session.ts": "kept",
      "path:src/auth/session.test.ts": "kept",
      "command:npx vitest run src/auth/session.test.ts": "kept",
      "identifier:refreshSession": "kept",
      "identifier:maxRetries": "kept",
    },
  },
  {
    name: "lossy summary forgets the last request and a file",
    spans: [
      {
        turns: [
          {
            user: "Rename the `fetchUser` helper to `loadUser` everywhere in the web app.",
            tools: [
              { kind: "search", title: "grep fetchUser", input: { pattern: "fetchUser" } },
              { kind: "edit", input: { file_path: "web/src/api/users.ts" } },
              { kind: "edit", input: { file_path: "web/src/pages/profile.tsx" } },
            ],
            agent: "Renamed `fetchUser` to `loadUser` in users.ts and profile.tsx.",
          },
          {
            user: "Also update the storybook stories under web/stories/user-card.stories.tsx and keep the old name exported as a deprecated alias.",
            agent: "Working on the stories now.",
          },
          { compact: true },
        ],
        summary: `The user asked to rename fetchUser to loadUser in the web app. Done in web/src/api/users.ts and web/src/pages/profile.tsx.`,
      },
    ],
    labels: {
      "instruction:u1": "kept",
      "last_request:u2": "dropped",
      "path:web/src/api/users.ts": "kept",
      "path:web/src/pages/profile.tsx": "kept",
      "path:web/stories/user-card.stories.tsx": "dropped",
      "identifier:fetchUser": "kept",
      "identifier:loadUser": "kept",
    },
  },
  {
    name: "failing command and its error are summarised",
    spans: [
      {
        turns: [
          {
            user: "Run the migration tests and tell me what breaks.",
            tools: [
              {
                kind: "execute",
                input: { command: "cargo test -p ledger migrations" },
                error: "thread 'migrations::v7' panicked: duplicate column name: archived_at",
              },
            ],
            agent: "The v7 migration adds `archived_at` twice.",
          },
          { compact: true },
        ],
        summary: `- Ran cargo test -p ledger migrations: it failed, migration v7 panicked with "duplicate column name: archived_at".
- Next: remove the duplicate ALTER TABLE.`,
      },
    ],
    labels: {
      "last_request:u1": "kept",
      "command:cargo test -p ledger migrations": "kept",
      "error:call-1": "kept",
    },
  },
  {
    name: "summary drops the failure of the build",
    spans: [
      {
        turns: [
          {
            user: "Bump the TypeScript target to ES2022 in tsconfig.json.",
            tools: [
              { kind: "edit", input: { file_path: "tsconfig.json" } },
              {
                kind: "execute",
                input: { command: "npm run build" },
                error: "src/lib/queue.ts(14,5): error TS2550: Property 'at' does not exist",
              },
            ],
            agent:
              "The target is ES2022 now; the build fails in src/lib/queue.ts because `lib` still says ES2020.",
          },
          { compact: true },
        ],
        summary: `Changed the TypeScript target to ES2022 in tsconfig.json. Ran npm run build.`,
      },
    ],
    labels: {
      "last_request:u1": "kept",
      "path:tsconfig.json": "kept",
      "command:npm run build": "kept",
      "error:call-2": "dropped",
      "path:src/lib/queue.ts": "dropped",
    },
  },
  {
    name: "short prose summary paraphrases instructions",
    spans: [
      {
        turns: [
          {
            user: "Make the sidebar collapsible on narrow screens, below 640px it should start collapsed.",
            tools: [{ kind: "edit", input: { file_path: "src/features/sidebar/sidebar.tsx" } }],
            agent: "The sidebar collapses below 640px and remembers the choice.",
          },
          {
            user: "Use the existing Disclosure component instead of a custom toggle.",
            tools: [{ kind: "edit", input: { file_path: "src/features/sidebar/sidebar.tsx" } }],
            agent: "Switched to Disclosure.",
          },
          { compact: true },
        ],
        summary: `We made the sidebar collapsible: on narrow screens (below 640px) it starts collapsed. It now uses the existing Disclosure component rather than a custom toggle (sidebar.tsx).`,
      },
    ],
    labels: {
      "instruction:u1": "kept",
      "last_request:u2": "kept",
      "path:src/features/sidebar/sidebar.tsx": "kept",
    },
  },
  {
    name: "summary keeps the gist but not the person's constraint",
    spans: [
      {
        turns: [
          {
            user: "Write a CSV export for the invoices table.",
            tools: [{ kind: "edit", input: { file_path: "server/export/invoices-csv.ts" } }],
            agent: "Added an export that streams rows.",
          },
          {
            user: "Never include the customer's tax number column, legal said it must not leave the system.",
            agent: "Understood.",
          },
          {
            user: "Now wire the export to a download button on the invoices page.",
            agent: "On it.",
          },
          { compact: true },
        ],
        summary: `Primary request: a CSV export for the invoices table, implemented in server/export/invoices-csv.ts (streams rows). Current work: wire the export to a download button on the invoices page.`,
      },
    ],
    labels: {
      "instruction:u1": "kept",
      "instruction:u2": "dropped",
      "last_request:u3": "kept",
      "path:server/export/invoices-csv.ts": "kept",
    },
  },
  {
    name: "paths from tool locations, summary names only file names",
    spans: [
      {
        turns: [
          {
            user: "Find why the dashboard chart flickers on resize.",
            tools: [
              {
                kind: "read",
                title: "Read chart",
                locations: ["/home/user/app/src/dashboard/chart.tsx"],
              },
              {
                kind: "read",
                title: "Read hook",
                locations: ["/home/user/app/src/dashboard/use-size.ts"],
              },
              {
                kind: "read",
                title: "Read styles",
                locations: ["/home/user/app/src/dashboard/chart.module.css"],
              },
            ],
            agent: "use-size.ts sets state on every resize event without throttling.",
          },
          { compact: true },
        ],
        summary: `Investigating chart flicker on resize: chart.tsx re-renders because use-size.ts sets state on every resize event; plan to throttle with requestAnimationFrame.`,
      },
    ],
    labels: {
      "last_request:u1": "kept",
      "path:/home/user/app/src/dashboard/chart.tsx": "kept",
      "path:/home/user/app/src/dashboard/use-size.ts": "kept",
      "path:/home/user/app/src/dashboard/chart.module.css": "dropped",
    },
  },
  {
    name: "commands with cd and env prefixes",
    spans: [
      {
        turns: [
          {
            user: "Check the API still builds and the e2e suite passes.",
            tools: [
              { kind: "execute", input: { command: "cd api && go build ./..." } },
              {
                kind: "execute",
                input: { command: "CI=1 npx playwright test --project=chromium" },
              },
              { kind: "execute", input: { command: "docker compose up -d postgres" } },
            ],
            agent: "The API builds and e2e passes after starting postgres.",
          },
          { compact: true },
        ],
        summary: `Verified: go build of the API succeeds; npx playwright test passes (chromium) after starting Postgres.`,
      },
    ],
    labels: {
      "last_request:u1": "kept",
      "command:cd api && go build ./...": "kept",
      "command:CI=1 npx playwright test --project=chromium": "kept",
      "command:docker compose up -d postgres": "dropped",
    },
  },
  {
    name: "plan entries partly carried",
    spans: [
      {
        turns: [
          {
            user: "Plan the move from Express to Fastify and start with the health route.",
            plan: [
              "Inventory the Express middleware in use",
              "Port the health route to Fastify",
              "Port the auth middleware to a Fastify hook",
              "Remove Express from package.json",
            ],
            tools: [{ kind: "edit", input: { file_path: "server/routes/health.ts" } }],
            agent: "The health route runs on Fastify.",
          },
          { compact: true },
        ],
        summary: `Migrating the server from Express to Fastify. Done: inventoried the Express middleware; ported the health route (server/routes/health.ts) to Fastify. Next: port the auth middleware to a Fastify hook.`,
      },
    ],
    labels: {
      "last_request:u1": "kept",
      "plan:Inventory the Express middleware in use": "kept",
      "plan:Port the health route to Fastify": "kept",
      "plan:Port the auth middleware to a Fastify hook": "kept",
      "plan:Remove Express from package.json": "dropped",
      "path:server/routes/health.ts": "kept",
      "path:package.json": "dropped",
    },
  },
  {
    name: "URLs mentioned twice, one kept",
    spans: [
      {
        turns: [
          {
            user: "Follow the upgrade guide at https://vitejs.dev/guide/migration and the issue https://github.com/acme/web/issues/812 for context.",
            agent:
              "Reading https://vitejs.dev/guide/migration now; https://github.com/acme/web/issues/812 says the alias plugin breaks.",
          },
          { compact: true },
        ],
        summary: `Upgrading Vite following the upgrade guide at https://vitejs.dev/guide/migration; context in the acme/web issue about the alias plugin.`,
      },
    ],
    labels: {
      "last_request:u1": "kept",
      "url:https://vitejs.dev/guide/migration": "kept",
      "url:https://github.com/acme/web/issues/812": "dropped",
    },
  },
];
