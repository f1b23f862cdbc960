import { SafeMarkdown } from "../../components/safe-markdown";
import { DisclosureButton, useTimelineDisclosure } from "./timeline-disclosure";

/** The agent's thinking, collapsed behind "Thinking" until asked for. */
export function ReasoningPart({ itemKey, text }: { itemKey: string; text: string }) {
  const { open, panelId, toggle } = useTimelineDisclosure(itemKey);
  return (
    <div className="text-slate-600 dark:text-slate-300">
      <DisclosureButton open={open} panelId={panelId} look="muted" onClick={toggle}>
        Thinking
      </DisclosureButton>
      {open ? (
        <div id={panelId} className="mt-1 border-l-2 border-slate-300 pl-3 dark:border-slate-600">
          <SafeMarkdown text={text} />
        </div>
      ) : null}
    </div>
  );
}
