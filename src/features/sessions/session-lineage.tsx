import { useQuery } from "@tanstack/react-query";
import { Fragment } from "react";
import { Link } from "wouter";
import { type SessionRef, sessionQueries } from "../../api/session-queries";
import { sessionPathOf } from "../../lib/session-path";
import { lineagePhrases } from "./session-lineage-view";

/** "Continued from …", "Continued in …", "Forked into …": each a link to that session. */
export function SessionLineage({ session }: { session: SessionRef }) {
  const detail = useQuery(sessionQueries.detail(session));
  const phrases = lineagePhrases(detail.data);
  if (phrases.length === 0) return null;
  return (
    <nav
      aria-label="Related sessions"
      className="border-b border-slate-200 px-4 py-1.5 text-xs text-slate-700 dark:border-slate-800 dark:text-slate-300"
    >
      <ul className="flex flex-wrap gap-x-4 gap-y-1">
        {phrases.map((phrase) => (
          <li key={phrase.lead}>
            {phrase.lead}{" "}
            {phrase.links.map((link, index) => (
              <Fragment key={link.sessionId}>
                {index > 0 ? ", " : null}
                {link.deleted ? (
                  <span className="italic">{link.label}</span>
                ) : (
                  <Link
                    href={sessionPathOf(session.workspaceId, link.sessionId)}
                    className="font-medium text-cyan-800 underline dark:text-cyan-300"
                  >
                    {link.label}
                  </Link>
                )}
              </Fragment>
            ))}
          </li>
        ))}
      </ul>
    </nav>
  );
}
