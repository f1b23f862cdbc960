// Shared vitest setup. DOM matchers are registered for every test file; component tests
// opt into jsdom with a `// @vitest-environment jsdom` header.
import "@testing-library/jest-dom/vitest";
import { afterEach } from "vitest";

afterEach(async () => {
  if (typeof document !== "undefined") {
    const { cleanup } = await import("@testing-library/react");
    cleanup();
  }
});
