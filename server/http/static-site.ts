// Serves the built SPA from `dist/` with the security headers of docs/quality.md: a strict CSP
// (no inline script or style), nosniff and no referrer. Files are sent precompressed when
// the build left a `.br`/`.gz` beside them and the client accepts it (ADR 0076); hashed
// files under /assets are cached forever, everything else (index.html, the SPA fallback)
// is revalidated. Unknown non-/api paths get index.html so client-side routes
// (`/w/:ws/s/:id`) survive a reload; a missing /assets file is a 404, never HTML. A session
// link's page names the SPA's first two reads as preloads, so they run while the bundle
// loads (ADR 0210), and draws its newest entries, painted before any script runs (ADR 0217).
import { realpathSync, type Stats, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, resolve, sep } from "node:path";
import type { Context, Hono, MiddlewareHandler } from "hono";
import { firstPaintReads, THEME_COOKIE } from "../../src/contract/first-paint";
import { chooseEncoding, type StaticEncoding } from "./content-encoding";

export const SPA_HEADERS = {
  "Content-Security-Policy":
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
} as const;

export const IMMUTABLE = "public, max-age=31536000, immutable";
export const REVALIDATE = "no-cache";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

const SUFFIX: Record<Exclude<StaticEncoding, "identity">, string> = { br: ".br", gzip: ".gz" };

const spaHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(SPA_HEADERS)) c.res.headers.set(name, value);
};

/**
 * A regular file whose real path (every symlink resolved) is still inside `realRoot`: a
 * symlink planted in dist/ that points elsewhere is served as if the file did not exist.
 */
function fileStat(path: string, realRoot: string): Stats | undefined {
  try {
    const real = realpathSync(path);
    if (!real.startsWith(realRoot + sep)) return undefined;
    const stat = statSync(real);
    return stat.isFile() ? stat : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The file a URL path names inside `root`, or undefined for anything that is not a plain
 * relative path: undecodable escapes, NUL, backslashes, `..` or `.` segments (decoded or
 * not), and whatever would resolve outside the root.
 */
function resolveInside(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return undefined;
  const segments = decoded.split("/").filter((segment) => segment !== "");
  if (segments.some((segment) => segment === ".." || segment === ".")) return undefined;
  const path = resolve(root, ...segments);
  // The root itself (`/`) is no file, but it is inside: the SPA fallback answers it.
  return path === root || path.startsWith(root + sep) ? path : undefined;
}

async function sendFile(
  c: Context,
  path: string,
  stat: Stats,
  cacheControl: string,
  realRoot: string,
): Promise<Response> {
  const variants = new Map<StaticEncoding, { path: string; stat: Stats }>();
  variants.set("identity", { path, stat });
  for (const [encoding, suffix] of Object.entries(SUFFIX) as [
    Exclude<StaticEncoding, "identity">,
    string,
  ][]) {
    const found = fileStat(path + suffix, realRoot);
    if (found !== undefined) variants.set(encoding, { path: path + suffix, stat: found });
  }
  const encoding = chooseEncoding(c.req.header("accept-encoding"), new Set(variants.keys()));
  const chosen = variants.get(encoding) ?? { path, stat };
  const headers = new Headers({
    "Content-Type": CONTENT_TYPES[extname(path)] ?? "application/octet-stream",
    "Content-Length": String(chosen.stat.size),
    "Cache-Control": cacheControl,
    "Last-Modified": stat.mtime.toUTCString(),
  });
  // Only a file that has variants answers differently per Accept-Encoding.
  if (variants.size > 1) headers.set("Vary", "Accept-Encoding");
  if (encoding !== "identity") headers.set("Content-Encoding", encoding);
  if (c.req.method === "HEAD") return new Response(null, { status: 200, headers });
  let body: Buffer;
  try {
    body = await readFile(chosen.path);
  } catch {
    return c.text("Not Found", 404);
  }
  // The file changed between stat and read (a rebuild): send what was read, truthfully.
  headers.set("Content-Length", String(body.length));
  return new Response(new Uint8Array(body), { status: 200, headers });
}

/** A session link, with ids as the daemon mints them; anything else gets no preload. */
const SESSION_LINK = /^\/w\/([A-Za-z0-9_-]{1,64})\/s\/([A-Za-z0-9_-]{1,64})\/?$/;

/**
 * index.html with the session's first reads as `<link rel="preload" as="fetch">`, placed
 * first in <head> so they are requested before the bundle. `crossorigin="anonymous"` is
 * the credentials mode `same-origin` the SPA's fetch uses (READ_CREDENTIALS); ids are
 * limited to URL-safe characters, so nothing in the href needs escaping.
 */
export function withFirstPaintPreloads(html: string, urlPath: string): string | undefined {
  const link = SESSION_LINK.exec(urlPath);
  if (!link?.[1] || !link[2]) return undefined;
  const head = html.indexOf("<head>");
  if (head < 0) return undefined;
  const tags = firstPaintReads(link[1], link[2])
    .map((href) => `<link rel="preload" as="fetch" crossorigin="anonymous" href="${href}">`)
    .join("");
  const at = head + "<head>".length;
  return html.slice(0, at) + tags + html.slice(at);
}

/** The page in the theme the person forced (the SPA's cookie), so its first paint is in it. */
export function withTheme(html: string, cookieHeader: string | undefined): string {
  const theme = cookieHeader
    ?.split(";")
    .map((pair) => pair.trim())
    .find((pair) => pair.startsWith(`${THEME_COOKIE}=`))
    ?.slice(THEME_COOKIE.length + 1);
  if (theme !== "light" && theme !== "dark") return html;
  return html.replace(/<html(?=[\s>])/, `<html data-theme="${theme}"`);
}

/** The page with the session's first screen as the body's first element (ADR 0217). */
export function withFirstScreen(html: string, firstScreen: string | undefined): string {
  const body = /<body[^>]*>/.exec(html);
  if (firstScreen === undefined || body === null) return html;
  const at = body.index + body[0].length;
  return html.slice(0, at) + firstScreen + html.slice(at);
}

async function sendIndexWithPreloads(
  c: Context,
  index: string,
  urlPath: string,
  firstScreen: StaticSiteOptions["firstScreen"],
) {
  let html: string;
  try {
    html = await readFile(index, "utf8");
  } catch {
    return c.text("Not Found", 404);
  }
  const link = SESSION_LINK.exec(urlPath);
  const screen =
    firstScreen && link?.[1] && link[2] && c.req.method === "GET"
      ? await firstScreen(c, link[1], link[2])
      : undefined;
  const page = withTheme(
    withFirstScreen(withFirstPaintPreloads(html, urlPath) ?? html, screen),
    c.req.header("cookie"),
  );
  const body = Buffer.from(page, "utf8");
  const headers = new Headers({
    "Content-Type": CONTENT_TYPES[".html"] as string,
    "Content-Length": String(body.length),
    "Cache-Control": REVALIDATE,
  });
  if (c.req.method === "HEAD") return new Response(null, { status: 200, headers });
  return new Response(new Uint8Array(body), { status: 200, headers });
}

export type StaticSiteOptions = {
  /**
   * Name a session link's first reads as preloads. Off when the API needs a token: the
   * page request carries none (it is in the fragment), so a preload could only be refused.
   */
  preloadFirstReads?: boolean;
  /**
   * The first screen of a session link, drawn from the daemon's own answers to its first
   * reads (ADR 0217); only asked for when the preloads are on.
   */
  firstScreen?: (c: Context, workspaceId: string, sessionId: string) => Promise<string | undefined>;
};

export function mountStaticSite(app: Hono, distDir: string, options: StaticSiteOptions = {}): void {
  const root = resolve(distDir);
  let realRoot = root;
  try {
    realRoot = realpathSync(root);
  } catch {
    // No dist yet: nothing is inside it, so every file lookup fails and answers 404.
  }
  app.use("*", spaHeaders);
  app.on(["GET", "HEAD"], "*", async (c) => {
    const urlPath = new URL(c.req.url).pathname;
    const path = resolveInside(root, urlPath);
    const stat = path === undefined ? undefined : fileStat(path, realRoot);
    if (path !== undefined && stat !== undefined) {
      const hashed = urlPath.startsWith("/assets/");
      return sendFile(c, path, stat, hashed ? IMMUTABLE : REVALIDATE, realRoot);
    }
    if (urlPath.startsWith("/assets/") || path === undefined) return c.text("Not Found", 404);
    const index = resolve(root, "index.html");
    const indexStat = fileStat(index, realRoot);
    if (indexStat === undefined) return c.text("Not Found", 404);
    if (options.preloadFirstReads === true && SESSION_LINK.test(urlPath)) {
      return sendIndexWithPreloads(c, index, urlPath, options.firstScreen);
    }
    return sendFile(c, index, indexStat, REVALIDATE, realRoot);
  });
}
