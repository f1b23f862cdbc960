import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

const daemon = process.env.TIDELINE_DAEMON ?? "http://127.0.0.1:4820";

/** The dev server's policy: only `connect-src`, as Vite's own inline preamble needs scripts. */
export const DEV_SERVER_CSP = "connect-src 'self'";

const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".html", ".svg", ".json", ".txt"]);
/** Below this a compressed copy saves less than its own headers cost. */
const MIN_COMPRESS_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

/**
 * Writes `<file>.br` and `<file>.gz` beside each compressible file of the build, so the
 * daemon sends compressed bytes without compressing per request (ADR 0076). A variant
 * that would not be smaller is not written. Source maps are left alone (dev tools only).
 */
export function precompressDir(
  dir: string,
): { path: string; bytes: number; br?: number; gzip?: number }[] {
  const done: { path: string; bytes: number; br?: number; gzip?: number }[] = [];
  for (const path of filesUnder(dir)) {
    if (!COMPRESSIBLE.has(extname(path))) continue;
    const bytes = statSync(path).size;
    if (bytes < MIN_COMPRESS_BYTES) continue;
    const content = readFileSync(path);
    const br = brotliCompressSync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
      },
    });
    const gzip = gzipSync(content, { level: 9 });
    const result: { path: string; bytes: number; br?: number; gzip?: number } = { path, bytes };
    if (br.length < bytes) {
      writeFileSync(`${path}.br`, br);
      result.br = br.length;
    }
    if (gzip.length < bytes) {
      writeFileSync(`${path}.gz`, gzip);
      result.gzip = gzip.length;
    }
    done.push(result);
  }
  return done;
}

/** Precompresses the output directory once the bundle is written. */
function precompressAssets(): Plugin {
  let outDir = "dist";
  return {
    name: "tideline-precompress",
    apply: "build",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}

/**
 * Test support lives in `src/testing/` and `server/testing/` (ADR 0145) and never ships: the
 * lint boundaries forbid production code importing it, and this fails a build that would
 * bundle it anyway.
 */
export function keepTestSupportOut(): Plugin {
  return {
    name: "tideline-no-test-support",
    apply: "build",
    moduleParsed(info) {
      if (/[\\/](src|server)[\\/]testing[\\/]/.test(info.id)) {
        this.error(`test support would enter the production bundle: ${info.id}`);
      }
    },
  };
}

/**
 * The SPA is written against React's API and runs on Preact's compatibility layer (ADR 0215):
 * every import of React, its DOM renderer and its JSX runtime resolves to Preact, in the build
 * and in the tests alike.
 */
const PREACT_ALIASES = [
  { find: /^react-dom\/test-utils$/, replacement: "preact/test-utils" },
  { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
  { find: /^react\/jsx-runtime$/, replacement: "preact/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/jsx-runtime" },
  { find: /^react(-dom)?$/, replacement: "preact/compat" },
  // wouter's shim for React 17; the hook is built in now.
  { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: "preact/compat" },
];

export default defineConfig({
  plugins: [tailwindcss(), precompressAssets(), keepTestSupportOut()],
  // `@/` is `src/` for the SPA and its tests (tsconfig `paths` says the same to tsc). The
  // daemon and the CLI run through tsx from any directory, so src/contract/ never uses it.
  resolve: {
    alias: [
      { find: "@", replacement: fileURLToPath(new URL("./src", import.meta.url)) },
      ...PREACT_ALIASES,
    ],
  },
  // The budget that matters is docs/quality.md's gzip size of the initial JavaScript (`npm run
  // bench` measures it); the main chunk is ~260 KB before gzip, so warn only well past that.
  // No source maps in the build: the daemon would serve the whole source to anyone who can
  // reach it, and dev tools have the dev server for that.
  build: {
    outDir: "dist",
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // TanStack Query marks its modules "use client" for server components; a browser
      // bundle has nothing to preserve.
      onLog(level, log, handler) {
        if (log.code === "MODULE_LEVEL_DIRECTIVE" && log.message.includes('"use client"')) return;
        handler(level, log);
      },
    },
  },
  server: {
    proxy: { "/api": { target: daemon, changeOrigin: false } },
    // The page may talk only to the dev server (which proxies /api and carries HMR): a
    // crafted link cannot make it send the token to another origin.
    headers: { "Content-Security-Policy": DEV_SERVER_CSP },
  },
  test: {
    include: [
      "src/**/*.test.{ts,tsx}",
      "server/**/*.test.ts",
      "cli/**/*.test.ts",
      "scripts/**/*.test.ts",
      "vite.config.test.ts",
    ],
    environment: "node",
    setupFiles: ["./src/testing/setup.ts"],
    // Testing Library's CommonJS entry would `require` React itself, past the aliases above.
    alias: [
      {
        find: /^@testing-library\/react$/,
        replacement: "@testing-library/react/dist/@testing-library/react.esm.js",
      },
    ],
    // Packages that import React are bundled by Vite for the tests, so they get Preact too.
    server: {
      deps: {
        inline: [
          /@testing-library\/react/,
          /@tanstack\/react-/,
          /react-markdown/,
          /wouter/,
          /zustand/,
          /use-sync-external-store/,
        ],
      },
    },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
