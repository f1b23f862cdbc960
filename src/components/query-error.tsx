/** An inline failure with Retry: what failed, the daemon's words, and a way to try again. */
export function QueryError({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: Error;
  onRetry: () => void;
}) {
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100"
    >
      <p className="font-medium">{title}</p>
      <p className="mt-1">{error.message}</p>
      <button
        type="button"
        onClick={onRetry}
        className="mt-2 rounded border border-red-400 px-2 py-0.5 font-medium hover:bg-red-100 dark:border-red-700 dark:hover:bg-red-900/50"
      >
        Retry
      </button>
    </div>
  );
}
