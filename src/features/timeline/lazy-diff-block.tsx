import { Suspense } from "react";
import { lazyAfterPaint } from "../../lib/lazy-after-paint";
import type { DiffContent } from "./diff-content";

/** The diff view and its `diff` package are a chunk of their own (ADR 0211). */
const LoadedDiffBlock = lazyAfterPaint(() =>
  import("./diff-block").then((module) => module.DiffBlock),
);

/** A file's diff; its path alone until the diff view has loaded. */
export function DiffBlock({ diff, proposed = false }: { diff: DiffContent; proposed?: boolean }) {
  return (
    <Suspense fallback={<p className="font-mono text-xs">{diff.path}</p>}>
      <LoadedDiffBlock diff={diff} proposed={proposed} />
    </Suspense>
  );
}
