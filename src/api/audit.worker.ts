// The audit worker: runs an audit job off the page's main thread and posts back the
// result or the error's message. One job per worker; the page terminates it after.
import { type AuditJob, runAuditJob } from "./audit-jobs";

self.onmessage = (event: MessageEvent<AuditJob>) => {
  runAuditJob(event.data).then(
    (result) => self.postMessage({ ok: true, result }),
    (error: unknown) =>
      self.postMessage({
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      }),
  );
};
