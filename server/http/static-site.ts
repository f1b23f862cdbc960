// Serves the built SPA from `dist/` with the security headers of quality.md: a strict CSP
// (no inline script or style), nosniff and no referrer. Unknown non-/api paths get
// index.html so client-side routes (`/w/:ws/s/:id`) survive a reload.
import { serveStatic } from "@hono/node-server/serve-static";
import type { Hono, MiddlewareHandler } from "hono";

export const SPA_HEADERS = {
  "Content-Security-Policy":
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
} as const;

const spaHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(SPA_HEADERS)) c.res.headers.set(name, value);
};

export function mountStaticSite(app: Hono, distDir: string): void {
  app.use("*", spaHeaders);
  app.use("*", serveStatic({ root: distDir }));
  app.get("*", serveStatic({ root: distDir, path: "index.html" }));
}
