import { useState } from "react";
import type { AuditItem, CompactionAudit } from "../../audit/types";
import { Button } from "../../components/button";
import { AUDIT_ITEMS_PER_KIND } from "../../contract/compaction-audit";
import { AuditItemView } from "./compaction-audit-item";
import { countsLine, remindable } from "./compaction-audit-view";
import { DisclosureButton, useTimelineDisclosure } from "./timeline-disclosure";
import { useRemindAgent } from "./use-remind-agent";

/** Items shown per group before "Show all" (a span can mention 10,000 paths). */
const SHOWN = 40;

/**
 * "What the summary kept": a disclosure whose header gives the counts; open, the dropped
 * items first, each with a checkbox (all chosen by default) for Remind the agent, then
 * what was kept. Without a readable summary it says nothing could be checked.
 */
export function AuditInventory({
  audit,
  sessionId,
  when,
}: {
  audit: CompactionAudit;
  sessionId: string;
  when: string;
}) {
  const { open, panelId: regionId, toggle } = useTimelineDisclosure(`audit:${audit.compaction_id}`);
  const counts = countsLine(audit);
  return (
    <div className="mt-1">
      <DisclosureButton open={open} panelId={regionId} onClick={toggle}>
        What the summary kept <span className="font-normal">· {counts}</span>
      </DisclosureButton>
      {open ? (
        <section
          id={regionId}
          aria-label={`What the summary of the compaction at ${when} kept`}
          className="mt-2 rounded-md border border-slate-200 bg-white p-3 text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
        >
          {audit.summary_readable ? (
            <ReadableInventory audit={audit} sessionId={sessionId} />
          ) : (
            <>
              <p className="text-sm">
                This compaction's summary is not readable (the agent did not share it), so nothing
                can be checked. These are what the replaced turns held:
              </p>
              <ItemList items={audit.items} />
            </>
          )}
        </section>
      ) : null}
    </div>
  );
}

function ReadableInventory({ audit, sessionId }: { audit: CompactionAudit; sessionId: string }) {
  const dropped = remindable(audit);
  const kept = audit.items.filter((item) => item.status === "kept");
  // Unchosen keys, so every dropped item starts chosen (and a new one would too).
  const [unchosen, setUnchosen] = useState<ReadonlySet<string>>(new Set());
  const remind = useRemindAgent(sessionId);
  const chosen = dropped.filter((item) => !unchosen.has(item.key));
  const choose = (key: string, checked: boolean) => {
    const next = new Set(unchosen);
    if (checked) next.delete(key);
    else next.add(key);
    setUnchosen(next);
  };
  return (
    <div className="space-y-3">
      {dropped.length > 0 ? (
        <fieldset>
          <legend className="text-sm font-semibold">Dropped ({dropped.length})</legend>
          <ItemList
            items={dropped}
            selectFor={(item) => ({
              checked: !unchosen.has(item.key),
              onChange: (checked) => choose(item.key, checked),
            })}
          />
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <Button
              tone="primary"
              size="sm"
              disabled={chosen.length === 0}
              onClick={() => remind(chosen)}
            >
              Remind the agent
            </Button>
            <span className="text-xs text-slate-600 dark:text-slate-400">
              {chosen.length} of {dropped.length} chosen · puts a prompt in the message box; nothing
              is sent until you press Send
            </span>
          </div>
        </fieldset>
      ) : (
        <p className="text-sm">The summary carries everything this check looks for.</p>
      )}
      {audit.omitted > 0 ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {audit.omitted.toLocaleString("en-US")} more items were checked but are not listed (each
          kind lists its first {AUDIT_ITEMS_PER_KIND}, dropped first).
        </p>
      ) : null}
      {kept.length > 0 ? (
        <div>
          <p className="text-sm font-semibold">Kept ({kept.length})</p>
          <ItemList items={kept} />
        </div>
      ) : null}
    </div>
  );
}

function ItemList({
  items,
  selectFor,
}: {
  items: readonly AuditItem[];
  selectFor?: (item: AuditItem) => { checked: boolean; onChange: (checked: boolean) => void };
}) {
  const [all, setAll] = useState(false);
  const shown = all ? items : items.slice(0, SHOWN);
  return (
    <>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {shown.map((item) => (
          <AuditItemView key={item.key} item={item} select={selectFor?.(item)} />
        ))}
      </ul>
      {items.length > shown.length ? (
        <Button size="sm" tone="ghost" onClick={() => setAll(true)}>
          Show all {items.length.toLocaleString("en-US")} items
        </Button>
      ) : null}
    </>
  );
}
