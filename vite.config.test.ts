import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import config, { DEV_SERVER_CSP, keepTestSupportOut, precompressDir } from "./vite.config";

const dir = mkdtempSync(join(tmpdir(), "tideline-precompress-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("precompressing the build", () => {
  it("when the build has text assets, then each large one gets .br and .gz copies that decode to it; tiny, binary and map files are left alone", () => {
    mkdirSync(join(dir, "assets"));
    const js = `console.log(${JSON.stringify("tideline ".repeat(500))});\n`;
    writeFileSync(join(dir, "assets", "index-abc.js"), js);
    writeFileSync(join(dir, "assets", "index-abc.js.map"), js);
    writeFileSync(join(dir, "assets", "logo.png"), Buffer.alloc(4096, 7));
    writeFileSync(join(dir, "index.html"), "<!doctype html>");
    // Random bytes do not compress: no copy is written that would be larger.
    const noise = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24));
    writeFileSync(join(dir, "assets", "noise.txt"), noise);

    const report = precompressDir(dir);

    const brFile = readFileSync(join(dir, "assets", "index-abc.js.br"));
    const gzFile = readFileSync(join(dir, "assets", "index-abc.js.gz"));
    expect(brotliDecompressSync(brFile).toString()).toBe(js);
    expect(gunzipSync(gzFile).toString()).toBe(js);
    expect(brFile.length).toBeLessThan(gzFile.length);
    expect(report.find((file) => file.path.endsWith("index-abc.js"))).toMatchObject({
      bytes: js.length,
      br: brFile.length,
      gzip: gzFile.length,
    });
    expect(readdirSync(dir).sort()).toEqual(["assets", "index.html"]);
    const assets = readdirSync(join(dir, "assets")).sort();
    expect(assets).toEqual(
      [
        "index-abc.js",
        "index-abc.js.br",
        "index-abc.js.gz",
        "index-abc.js.map",
        "logo.png",
        "noise.txt",
        ...assets.filter((name) => name.startsWith("noise.txt.")),
      ].sort(),
    );
    for (const name of assets.filter((n) => n.startsWith("noise.txt."))) {
      expect(readFileSync(join(dir, "assets", name)).length).toBeLessThan(noise.length);
    }
  });
});

describe("the build and the dev server", () => {
  it("when the production build runs, then it writes no source maps", () => {
    expect(config.build?.sourcemap).toBe(false);
  });

  it("when the dev server answers, then its CSP lets the page connect only to itself", () => {
    expect(config.server?.headers?.["Content-Security-Policy"]).toBe(DEV_SERVER_CSP);
    expect(DEV_SERVER_CSP).toBe("connect-src 'self'");
  });
});

describe("keeping test support out of the bundle", () => {
  const parsed = (id: string) => {
    const hook = keepTestSupportOut().moduleParsed as (this: unknown, info: { id: string }) => void;
    const context = {
      error(message: string): never {
        throw new Error(message);
      },
    };
    hook.call(context, { id });
  };

  it("when a module under src/testing/ or server/testing/ is parsed, then the build fails naming it; other modules pass", () => {
    expect(() => parsed("/repo/src/testing/compozy-examples.ts")).toThrow(
      /test support would enter the production bundle: \/repo\/src\/testing\/compozy-examples\.ts/,
    );
    expect(() => parsed("/repo/server/testing/daemon.ts")).toThrow(/test support/);
    expect(() => parsed("/repo/src/features/timeline/testing-notes.ts")).not.toThrow();
    expect(() => parsed("/repo/src/contract/session.ts")).not.toThrow();
  });
});
