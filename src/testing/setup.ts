// Shared vitest setup. DOM matchers are registered for every test file; component tests
// opt into jsdom with a `// @vitest-environment jsdom` header.
import "@testing-library/jest-dom/vitest";
import { afterAll, afterEach, vi } from "vitest";
import { firstScreenPainted } from "../lib/first-screen";

// A component test renders a part of a page, not its first screen: what waits for that
// screen (first-screen.ts) goes at once, as on a page whose first rows have painted.
firstScreenPainted();

afterEach(async () => {
  if (typeof document !== "undefined") {
    const { cleanup } = await import("@testing-library/react");
    cleanup();
  }
});

// A component file may end while a chunk it asked for is still loading (a lazy part, the
// highlighter's languages, or the fetch after the first paint: a frame, then a macrotask,
// ADR 0211). The file's environment must outlive those loads, or the import fails after
// teardown as an unhandled error that fails the whole run.
afterAll(async () => {
  if (typeof window === "undefined" || typeof window.requestAnimationFrame !== "function") return;
  await new Promise<void>((resolve) => window.requestAnimationFrame(() => setTimeout(resolve, 0)));
  await vi.dynamicImportSettled();
});
