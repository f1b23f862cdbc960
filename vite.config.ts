import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
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

export default defineConfig({
  plugins: [react(), tailwindcss(), precompressAssets(), keepTestSupportOut()],
  // `@/` is `src/` for the SPA and its tests (tsconfig `paths` says the same to tsc). The
  // daemon and the CLI run through tsx from any directory, so src/contract/ never uses it.
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  // The budget that matters is docs/quality.md's gzip size of the initial JavaScript (`npm run
  // bench` measures it); the main chunk is ~450 KB before gzip, so warn only well past that.
  // No source maps in the build: the daemon would serve the whole source to anyone who can
  // reach it, and dev tools have the dev server for that.
  build: { outDir: "dist", sourcemap: false, chunkSizeWarningLimit: 600 },
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
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
