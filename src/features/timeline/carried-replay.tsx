import { carriedReplayView, ROLE_LABELS } from "./carried-replay-view";
import { DisclosureButton, useTimelineDisclosure } from "./timeline-disclosure";

/**
 * The first row of a continued or forked session: where it comes from and, behind a
 * disclosure, the messages its agent is sent with the first prompt.
 */
export function CarriedReplay({
  itemKey,
  data,
}: {
  itemKey: string;
  data: Record<string, unknown>;
}) {
  const view = carriedReplayView(data);
  const { open, panelId: listId, toggle } = useTimelineDisclosure(itemKey);
  return (
    <section
      aria-label={view.heading}
      className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <p className="font-semibold text-slate-900 dark:text-slate-100">{view.heading}</p>
      <p className="mt-0.5 text-slate-700 dark:text-slate-300">{view.summary}</p>
      {view.messages.length > 0 ? (
        <DisclosureButton
          open={open}
          panelId={listId}
          look="link"
          className="mt-1"
          onClick={toggle}
        >
          {open ? "Hide what was carried" : "Show what was carried"}
        </DisclosureButton>
      ) : null}
      {open ? (
        <ol id={listId} className="mt-2 space-y-2">
          {view.messages.map((message, index) => (
            // The replay is a fixed list: its order is its identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index} className="border-l-2 border-slate-300 pl-2 dark:border-slate-600">
              <p className="text-xs font-semibold text-slate-700 dark:text-slate-300">
                {ROLE_LABELS[message.role] ?? message.role}
              </p>
              <p className="break-words whitespace-pre-wrap text-slate-800 dark:text-slate-200">
                {message.content}
              </p>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
