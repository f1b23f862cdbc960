// What Archive and Delete say, and when Archive is offered: the daemon archives only a
// stopped session (as CompozyOS does), and deletes any session whose turn is not running.
import type { Session } from "../../contract/session";

export const DELETE_COPY = {
  label: "Delete…",
  title: "Delete this session?",
  consequence:
    "The session and all of its history are removed from the daemon. This can't be undone.",
  turnRunning: "A turn is running: the daemon refuses to delete until it ends or you stop it.",
  keep: "Keep it",
  confirm: "Delete session",
  daemonSaid: "The daemon said:",
} as const;

export type ArchiveAction = { label: "Archive" | "Unarchive"; archived: boolean };

/** Archive for a stopped session, Unarchive for an archived one; nothing otherwise. */
export function archiveAction(
  session: Pick<Session, "state" | "archived_at"> | undefined,
): ArchiveAction | undefined {
  if (session === undefined) return undefined;
  if (typeof session.archived_at === "string") return { label: "Unarchive", archived: false };
  if (session.state === "stopped") return { label: "Archive", archived: true };
  return undefined;
}
