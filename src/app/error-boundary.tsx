import { Component, type ErrorInfo, type ReactNode } from "react";

type Props = { children: ReactNode };
type State = { error: Error | undefined };

/** Last line of defence: a render failure shows what went wrong and a way out, never a blank page. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: undefined };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("Tideline crashed while rendering", error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div
        role="alert"
        className="mx-auto mt-24 max-w-lg rounded-lg border border-red-300 p-6 dark:border-red-800"
      >
        <h1 className="text-lg font-semibold">Something went wrong</h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          Tideline hit an error while drawing this page. Your session and its history are safe in
          the daemon.
        </p>
        <pre className="mt-3 overflow-x-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-900">
          {error.message}
        </pre>
        <button
          type="button"
          className="mt-4 rounded-md bg-cyan-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-cyan-800"
          onClick={() => window.location.reload()}
        >
          Reload
        </button>
      </div>
    );
  }
}
