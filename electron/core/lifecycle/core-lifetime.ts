// The core's lifetime: one store of shutdown steps that every service adds to as it is built, and the bounded,
// staged shutdown that runs them (see ShutdownStage).
import { DisposableStore } from './disposable-store.js';
import type { ShutdownHook, ShutdownReport } from './shutdown.js';

/** How long shutdown() takes before its writes' grace (FLUSH_GRACE_MS); the Electron shell waits 5 s in all. */
export const SHUTDOWN_TIMEOUT_MS = 4500;
/** Time kept for the writes when sessions or release steps are slow. */
const FLUSH_RESERVE_MS = 500;
/** Time kept after the sessions for the release steps (ending process groups that are left must always run). */
const RELEASE_RESERVE_MS = 500;
/** What the sessions' release leaves of the deadline for the release and flush stages. */
export const SESSIONS_LEAVE_MS = FLUSH_RESERVE_MS + RELEASE_RESERVE_MS;

/** The core's shutdown steps and their one run. */
export class CoreLifetime {
  readonly #store = new DisposableStore();
  #shutdown: Promise<ShutdownReport> | undefined;
  #started: number | undefined;

  /** Adds a step (services do as they are built); returns the function that removes it. */
  add(hook: ShutdownHook): () => void {
    return this.#store.add(hook);
  }

  /** True once shutdown has begun. */
  get closing(): boolean {
    return this.#shutdown !== undefined;
  }

  /** Milliseconds since shutdown began (undefined before): the last log line reports it. */
  elapsedMs(): number | undefined {
    return this.#started === undefined ? undefined : Date.now() - this.#started;
  }

  /**
   * Stops everything, bounded: `stop` steps (front doors, open questions); `close` steps (running calls cancelled,
   * the catalog stopped, every session released); `release` steps; then every pending write side by side — flush and
   * final steps get their time even past the deadline. Idempotent: a second call returns the first one's report.
   */
  shutdown(opts: { timeoutMs?: number } = {}): Promise<ShutdownReport> {
    this.#shutdown ??= this.#run(opts.timeoutMs ?? SHUTDOWN_TIMEOUT_MS);
    return this.#shutdown;
  }

  async #run(timeoutMs: number): Promise<ShutdownReport> {
    const started = Date.now();
    this.#started = started;
    const deadline = started + timeoutMs;
    const steps = [
      ...(await this.#store.run('stop', deadline)),
      ...(await this.#store.run('close', deadline)),
      ...(await this.#store.run('release', deadline - FLUSH_RESERVE_MS)),
      ...(await this.#store.run('flush', deadline)),
      ...(await this.#store.run('final', deadline)),
    ];
    return { steps, ms: Date.now() - started };
  }
}
