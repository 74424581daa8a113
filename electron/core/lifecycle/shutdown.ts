// Ordered, bounded shutdown steps. Every service registers its steps in the core's store as it is built (the gateway
// closing its front, the calls cancelled, the sessions released, the event feed written), in stages, each step
// bounded so one stuck step cannot hold the app open.

/** When a hook runs: `stop` before the core releases anything (stop taking work), `close` to dispose of the services
 * (running calls, the catalog, the sessions), `release` after the sessions are closed (end what is left), `flush` to
 * write what is pending (flush steps run side by side), `final` once every write is done (release the data folder,
 * close the log). */
export type ShutdownStage = 'stop' | 'close' | 'release' | 'flush' | 'final';

/** A step another module adds to the Host's shutdown. */
export interface ShutdownHook {
  /** Shown in the log and the shutdown report. */
  name: string;
  /** When it runs (default `flush`). */
  stage?: ShutdownStage;
  /** The step; the signal aborts when its time is up. */
  run(signal: AbortSignal): Promise<void> | void;
  /** Longest it may take, in ms (default 2,000; never past the shutdown's deadline, or its grace for writes). */
  timeoutMs?: number;
  /** Instead of timeoutMs: the time left before the stage's deadline less this many ms (the sessions' release keeps
   * time for what comes after it). */
  leaveMs?: number;
}

/** How one shutdown step went. */
export interface ShutdownStep {
  /** The step's name. */
  name: string;
  /** How long it took (ms). */
  ms: number;
  /** ok, failed (threw), or timed out (left behind). */
  outcome: 'ok' | 'failed' | 'timed out';
  /** The error message of a failed step. */
  error?: string;
}

/** What a shutdown did, step by step. */
export interface ShutdownReport {
  /** Every step in the order it ran. */
  steps: ShutdownStep[];
  /** Total time (ms). */
  ms: number;
}

/** Default bound of one hook. */
export const HOOK_TIMEOUT_MS = 2000;
/**
 * Writes (flush and final steps) may run this far past the deadline: pending writes matter more than speed, and the
 * deadline plus this grace stays inside the desktop shell's own wait, so a quit never cuts a write short.
 */
export const FLUSH_GRACE_MS = 400;

/** Runs `fn` with a time limit; never throws. */
export async function boundedStep(name: string, fn: (signal: AbortSignal) => Promise<void> | void, ms: number): Promise<ShutdownStep> {
  const started = Date.now();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), Math.max(0, ms));
  });
  try {
    const outcome = await Promise.race([
      Promise.resolve()
        .then(() => fn(controller.signal))
        .then(() => 'ok' as const),
      expired,
    ]);
    if (outcome === 'timed out') controller.abort(new Error(`${name} did not finish within ${ms} ms`));
    return { name, ms: Date.now() - started, outcome };
  } catch (err) {
    return { name, ms: Date.now() - started, outcome: 'failed', error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/** The end of the grace kept for the final steps alone (closing the log is a write too). */
export const FINAL_RESERVE_MS = 150;

/**
 * How long a step of `stage` may take: its own bound, cut at the deadline; writes run into the grace, flush steps
 * up to its last FINAL_RESERVE_MS, which the final steps keep for themselves.
 */
export function stepBudget(stage: ShutdownStage, own: number, deadline: number): number {
  const end = stage === 'flush' ? deadline + FLUSH_GRACE_MS - FINAL_RESERVE_MS : stage === 'final' ? deadline + FLUSH_GRACE_MS : deadline;
  const left = end - Date.now();
  // A final step always gets its reserve, even when the flush steps used all theirs.
  return Math.max(stage === 'final' ? Math.min(own, FINAL_RESERVE_MS) : 0, Math.min(own, left));
}
