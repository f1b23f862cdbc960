import { useQuery } from "@tanstack/react-query";
import type { SessionRef } from "../../api/session-queries";
import { usageQueries } from "../../api/usage-queries";
import { useUsageTurns } from "../../api/use-usage-turns";
import { deriveMeterView, type MeterView } from "./context-meter-view";
import { MeterBar } from "./meter-bar";

/** The header's figure: `14%`, `89.7K`, or a word when there is no current figure. */
function compactFigure(view: MeterView): string {
  if (view.kind === "reading") return view.headline;
  if (view.kind === "compacting") return "compacting";
  if (view.kind === "loading") return "…";
  return "unknown";
}

/**
 * The session header's small meter. On wide screens the rail is beside it, so it is only a
 * figure; on narrow ones it is the button that opens the context sheet (`onOpen`), so the
 * meter, Compact now and its refusals are one tap away. Never a second `role="meter"`.
 */
export function ContextMeterCompact({
  session,
  onOpen,
  sheetOpen,
}: {
  session: SessionRef;
  onOpen?: (() => void) | undefined;
  sheetOpen?: boolean;
}) {
  const usage = useQuery(usageQueries.usage(session));
  const turns = useUsageTurns(session);
  const view = deriveMeterView(usage, turns.data?.compactions);
  const figure = compactFigure(view);
  const bar = <MeterBar fill={view.fill} compact />;
  const content = (
    <>
      <span className="text-xs text-slate-600 dark:text-slate-300">Context</span>
      <span className="text-sm font-semibold whitespace-nowrap tabular-nums">{figure}</span>
      {bar}
    </>
  );
  if (!onOpen) {
    return (
      <p className="flex shrink-0 items-center gap-1.5" title={view.valueText}>
        {content}
      </p>
    );
  }
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-haspopup="dialog"
      aria-expanded={sheetOpen ?? false}
      className="flex shrink-0 items-center gap-1.5 rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
    >
      {content}
      <span className="sr-only">: {view.valueText}. Open the context panel</span>
    </button>
  );
}
