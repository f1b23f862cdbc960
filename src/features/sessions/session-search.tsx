import { useQueries } from "@tanstack/react-query";
import { Link } from "wouter";
import { searchQueries } from "../../api/search-queries";
import { Spinner } from "../../components/spinner";
import {
  SEARCH_QUERY_MAX_CHARS,
  searchWords,
  type WorkspaceSearchHit,
} from "../../contract/search";
import { hitHref, hitLabel } from "./session-search-view";

/** The sidebar's search field: typing filters the list by name; Enter searches content. */
export function SessionSearchField({
  text,
  onText,
  onSubmit,
}: {
  text: string;
  onText: (text: string) => void;
  onSubmit: () => void;
}) {
  return (
    <input
      type="search"
      aria-label="Search sessions"
      placeholder="Search sessions (Enter: their content)"
      maxLength={SEARCH_QUERY_MAX_CHARS}
      value={text}
      onChange={(event) => onText(event.target.value)}
      onKeyDown={(event) => {
        if (event.key !== "Enter") return;
        event.preventDefault();
        onSubmit();
      }}
      className="w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-950"
    />
  );
}

/** What the sessions' content holds for `q`: each hit with its session and a snippet. */
export function ContentHits({
  q,
  workspaceIds,
  onNavigate,
}: {
  q: string;
  workspaceIds: readonly string[];
  onNavigate: () => void;
}) {
  const searchable = searchWords(q).length > 0;
  const results = useQueries({
    queries: workspaceIds.map((ws) => ({ ...searchQueries.workspace(ws, q), enabled: searchable })),
  });
  if (!searchable) {
    return <p className="text-xs text-slate-600 dark:text-slate-400">Type a word to search for.</p>;
  }
  if (results.some((result) => result.isPending)) {
    return (
      <p className="inline-flex items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
        <Spinner /> Searching sessions…
      </p>
    );
  }
  const failed = results.find((result) => result.isError);
  if (failed) {
    return (
      <p role="alert" className="text-xs text-red-800 dark:text-red-300">
        Couldn't search: {failed.error?.message}
      </p>
    );
  }
  if (results.every((result) => result.data === null)) {
    return (
      <p className="text-xs text-slate-600 dark:text-slate-400">
        This daemon cannot search session content; names are filtered above.
      </p>
    );
  }
  const hits = results.flatMap((result, index) =>
    (result.data?.hits ?? []).map((hit) => ({ hit, ws: workspaceIds[index] ?? "" })),
  );
  return (
    <section aria-label="Content matches" className="space-y-1">
      <h2 className="text-xs font-semibold text-slate-700 dark:text-slate-300">
        {hits.length === 0
          ? `No session mentions “${q}”`
          : `In the sessions’ content (${hits.length})`}
      </h2>
      <ul className="space-y-1">
        {hits.map(({ hit, ws }) => (
          <li key={`${hit.session_id}/${hit.entry_id}`}>
            <HitLink hit={hit} href={hitHref(hit, ws, q)} onNavigate={onNavigate} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function HitLink({
  hit,
  href,
  onNavigate,
}: {
  hit: WorkspaceSearchHit;
  href: string;
  onNavigate: () => void;
}) {
  return (
    <Link
      href={href}
      onClick={onNavigate}
      className="block rounded-md px-2 py-1 text-xs hover:bg-slate-100 dark:hover:bg-slate-800"
    >
      <span className="block font-medium text-slate-900 dark:text-slate-100">{hitLabel(hit)}</span>
      <span className="line-clamp-2 text-slate-700 dark:text-slate-300">
        {hit.snippet.map((piece, index) =>
          piece.match ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: pieces are fixed and in order.
            <mark key={index} className="rounded-sm bg-amber-200 text-slate-900 dark:bg-amber-300">
              {piece.text}
            </mark>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: pieces are fixed and in order.
            <span key={index}>{piece.text}</span>
          ),
        )}
      </span>
    </Link>
  );
}
