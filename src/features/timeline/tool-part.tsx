import { Spinner } from "../../components/spinner";
import { TOOL_BOX, TOOL_KIND, TOOL_STATE, TOOL_STATUS, TOOL_TITLE } from "./row-looks";
import { DisclosureButton, useTimelineDisclosure } from "./timeline-disclosure";
import { ToolOutput } from "./tool-output";
import { toolOutputView } from "./tool-output-view";
import { type AnyToolPart, toolKind, toolState, toolTitle } from "./tool-view";

/** One compact tool row (title, kind, state); expands to show what it did (command, diffs, output; raw behind a toggle). */
export function ToolPart({ itemKey, part }: { itemKey: string; part: AnyToolPart }) {
  const { open, panelId, toggle } = useTimelineDisclosure(itemKey);
  const state = toolState(part);
  return (
    <div className={TOOL_BOX}>
      <DisclosureButton open={open} panelId={panelId} look="block" onClick={toggle}>
        <span className={TOOL_TITLE}>{toolTitle(part)}</span>
        {/* A dynamic tool's name can be long (MCP names): it gives way before the title does. */}
        <span className={TOOL_KIND}>{toolKind(part)}</span>
        <span className={`${TOOL_STATUS} ${TOOL_STATE[state.tone]}`}>
          {state.tone === "running" ? (
            <Spinner />
          ) : (
            <span aria-hidden="true">{state.tone === "done" ? "✓" : "✕"}</span>
          )}
          {state.label}
        </span>
      </DisclosureButton>
      {open ? (
        <div id={panelId} className="space-y-2 border-t border-slate-200 p-2 dark:border-slate-700">
          <ToolOutput view={toolOutputView(part)} />
        </div>
      ) : null}
    </div>
  );
}
