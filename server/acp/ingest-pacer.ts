// Paces an agent's output through the daemon (ADR 0043): its lines are queued as they
// arrive (as tasks, in order) and handled in slices of at most `sliceMs`, with a yield to the event loop between
// slices, so a burst of frames or one long streamed reply never holds up HTTP requests or
// other sessions. Order is kept (one queue per agent). When the queue is long the source
// is paused — the agent's own writes then wait, which is the backpressure a pipe gives —
// and resumed once the queue has drained below half of that.
export type IngestPacer = {
  push(task: () => void): void;
  /** Runs `callback` once the queue is empty (at once when it already is). */
  whenIdle(callback: () => void): void;
  /** Tasks waiting to run. */
  readonly queued: number;
};

export type IngestPacerOptions = {
  pause(): void;
  resume(): void;
  /** The longest stretch of handling before yielding. */
  sliceMs?: number;
  /** Queued tasks at which the source is paused. */
  highWater?: number;
  /** How a slice yields; `setImmediate` lets I/O callbacks run in between. */
  schedule?: (run: () => void) => void;
  /** Runs one slice, e.g. inside one ledger transaction; the slice's tasks are inside. */
  around?: (slice: () => void) => void;
  /** The most tasks in one slice, whatever their speed (bounds one transaction). */
  maxPerSlice?: number;
  /** The clock slices are measured with (tests give their own). */
  now?: () => number;
};

const DEFAULT_SLICE_MS = 8;
const DEFAULT_HIGH_WATER = 2048;
const DEFAULT_MAX_PER_SLICE = 1000;

export function createIngestPacer(options: IngestPacerOptions): IngestPacer {
  const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  const highWater = options.highWater ?? DEFAULT_HIGH_WATER;
  const schedule = options.schedule ?? ((run) => setImmediate(run));
  // A queue with a moving head: shift() on a long array is O(n).
  let tasks: (() => void)[] = [];
  let head = 0;
  let scheduled = false;
  let paused = false;
  let idleWaiters: (() => void)[] = [];

  const queued = () => tasks.length - head;

  const maxPerSlice = options.maxPerSlice ?? DEFAULT_MAX_PER_SLICE;
  const around = options.around ?? ((slice: () => void) => slice());
  const now = options.now ?? (() => performance.now());

  function runSlice() {
    const deadline = now() + sliceMs;
    const end = Math.min(tasks.length, head + maxPerSlice);
    while (head < end) {
      const task = tasks[head] as () => void;
      head += 1;
      try {
        task();
      } catch (error) {
        // One bad line must not stop the agent's queue; the handler records its own errors.
        console.error("ingest: a line's handler failed", error);
      }
      if (now() >= deadline) break;
    }
  }

  function drainSlice() {
    scheduled = false;
    try {
      around(runSlice);
    } catch (error) {
      // The slice's transaction failed as a whole (e.g. the disk is full): said, not fatal.
      console.error("ingest: a slice could not be committed", error);
    }
    if (head === tasks.length) {
      tasks = [];
      head = 0;
    } else if (head > 4096) {
      tasks = tasks.slice(head);
      head = 0;
    }
    if (paused && queued() <= highWater / 2) {
      paused = false;
      options.resume();
    }
    if (queued() > 0) {
      scheduled = true;
      schedule(drainSlice);
      return;
    }
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const waiter of waiters) waiter();
  }

  return {
    push(task) {
      tasks.push(task);
      if (!paused && queued() >= highWater) {
        paused = true;
        options.pause();
      }
      if (!scheduled) {
        scheduled = true;
        schedule(drainSlice);
      }
    },
    whenIdle(callback) {
      if (queued() === 0 && !scheduled) callback();
      else idleWaiters.push(callback);
    },
    get queued() {
      return queued();
    },
  };
}
