import { useQuery } from "@tanstack/react-query";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { tabTitle } from "./session-approval";
import { sessionLabel } from "./session-sidebar-view";
import { useTabTitle } from "./use-tab-title";

/** The open session's name in the tab's title, flagged while an approval waits. */
export function SessionTabTitle({ session }: { session: SessionRef }) {
  const detail = useQuery(sessionQueries.detail(session));
  useTabTitle(tabTitle(detail.data ? sessionLabel(detail.data) : undefined, detail.data));
  return null;
}
