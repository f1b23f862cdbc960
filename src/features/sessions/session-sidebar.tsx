export function SessionSidebar({ activeSessionId }: { activeSessionId?: string }) {
  return (
    <nav
      aria-label="Sessions"
      className="border-slate-200 p-3 lg:w-72 lg:border-r dark:border-slate-800"
    >
      <p className="text-sm font-semibold">Tideline</p>
      {activeSessionId ? <p className="text-xs text-slate-500">{activeSessionId}</p> : null}
    </nav>
  );
}
