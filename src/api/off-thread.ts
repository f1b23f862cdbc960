// Runs an audit job in a dedicated Worker, so a long transcript's audit or a large
// summary diff never blocks the page (the 50 ms budget). Where there is no Worker
// (jsdom) the job runs inline, a step at a time between awaits, from a chunk of its own: the
// audit and diff code never weighs on the initial JS (ADR 0211).
import type { AuditJob, AuditJobResult } from "./audit-jobs";

type Reply = { ok: true; result: unknown } | { ok: false; message: string };

export function runOffThread<J extends AuditJob>(
  job: J,
  signal?: AbortSignal,
): Promise<AuditJobResult<J>> {
  if (typeof Worker !== "function") {
    return import("./audit-jobs").then(
      ({ runAuditJob }) => runAuditJob(job, signal) as Promise<AuditJobResult<J>>,
    );
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./audit.worker.ts", import.meta.url), { type: "module" });
    const stop = () => {
      worker.terminate();
      reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
    };
    signal?.addEventListener("abort", stop, { once: true });
    worker.onmessage = (event: MessageEvent<Reply>) => {
      signal?.removeEventListener("abort", stop);
      worker.terminate();
      if (event.data.ok) resolve(event.data.result as AuditJobResult<J>);
      else reject(new Error(event.data.message));
    };
    worker.onerror = (event) => {
      signal?.removeEventListener("abort", stop);
      worker.terminate();
      reject(new Error(event.message || "The audit worker failed."));
    };
    worker.postMessage(job);
  });
}
