// "Needs approval": a session with a permission request waiting for a person (CompozyOS's
// `pending_interactions`), for the sidebar badge and the tab title.
import { isJsonObject } from "../../contract/json-value";

type WithInteractions = { pending_interactions?: unknown };

/** How many approvals wait; an interaction without a status counts as waiting. */
export function pendingApprovals(session: WithInteractions | undefined): number {
  const list = Array.isArray(session?.pending_interactions) ? session.pending_interactions : [];
  return list.filter((entry) => {
    if (!isJsonObject(entry)) return false;
    const { kind, status } = entry;
    return (
      (kind === undefined || kind === "permission") &&
      (status === undefined || status === "pending")
    );
  }).length;
}

/** The badge's words: "needs approval", "2 need approval", or undefined. */
export function approvalBadge(session: WithInteractions | undefined): string | undefined {
  const count = pendingApprovals(session);
  if (count === 0) return undefined;
  return count === 1 ? "needs approval" : `${count} need approval`;
}

/** The tab's title: the session, flagged first when something waits for the person. */
export function tabTitle(label: string | undefined, session: WithInteractions | undefined): string {
  const base = label ? `${label} · Tideline` : "Tideline";
  const count = pendingApprovals(session);
  return count === 0 ? base : `(${count}) Needs approval · ${base}`;
}
