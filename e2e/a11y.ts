// The accessibility gate: axe-core (WCAG 2.2 A/AA and best practice) over the page as it
// is now, in both colour schemes and at a wide and a narrow width. Any violation fails the
// test that reached the state, with every offending node listed.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

// ARIA 1.2 puts the combobox role on the element that takes the text, and the composer's
// slash menu follows that pattern on its <textarea> (ADR 0135). ARIA in HTML lists no role
// for a textarea, so axe's aria-allowed-role would flag it: this one pairing is allowed,
// every other rule and element is checked as shipped.
const AXE_SOURCE = `${readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")}
axe.configure({ standards: { htmlElms: { textarea: { allowedRoles: ["combobox"] } } } });`;

export const AXE_TAGS = [
  "wcag2a",
  "wcag2aa",
  "wcag21a",
  "wcag21aa",
  "wcag22a",
  "wcag22aa",
  "best-practice",
];

export const SCHEMES = ["light", "dark"] as const;
export const WIDTHS = [1280, 360] as const;
export type Scheme = (typeof SCHEMES)[number];
export type Variant = { scheme: Scheme; width: number };

export const VARIANTS: readonly Variant[] = SCHEMES.flatMap((scheme) =>
  WIDTHS.map((width) => ({ scheme, width })),
);

const HEIGHT = { 1280: 800, 360: 740 } as Record<number, number>;

/** Shows the page as `variant`, runs `work`, then puts the page back as it was. */
export async function asVariant<T>(
  page: Page,
  variant: Variant,
  work: () => Promise<T>,
): Promise<T> {
  const before = page.viewportSize();
  await page.emulateMedia({ colorScheme: variant.scheme });
  await page.setViewportSize({ width: variant.width, height: HEIGHT[variant.width] ?? 800 });
  // Two frames: layout and the virtualized rows' re-measurement settle after a resize.
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
  try {
    return await work();
  } finally {
    if (before) await page.setViewportSize(before);
    await page.emulateMedia({ colorScheme: "light" });
  }
}

export type Finding = {
  state: string;
  variant: Variant;
  rule: string;
  impact: string;
  help: string;
  nodes: string[];
};

/** Every violation on the page now, for one variant. */
export async function audit(page: Page, state: string, variant: Variant): Promise<Finding[]> {
  const results = await new AxeBuilder({ page, axeSource: AXE_SOURCE })
    .withTags(AXE_TAGS)
    .analyze();
  return results.violations.map((violation) => ({
    state,
    variant,
    rule: violation.id,
    impact: violation.impact ?? "unknown",
    help: violation.help,
    nodes: violation.nodes.map(
      (node) =>
        `${node.target.join(" ")} — ${node.failureSummary?.split("\n").slice(1).join("; ")}`,
    ),
  }));
}

export function describeFindings(findings: readonly Finding[]): string {
  return findings
    .map(
      (finding) =>
        `[${finding.state} · ${finding.variant.scheme} · ${finding.variant.width}px] ${finding.rule} (${finding.impact}): ${finding.help}\n${finding.nodes.map((node) => `    ${node}`).join("\n")}`,
    )
    .join("\n");
}
