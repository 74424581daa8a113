// Per-server concurrency policy for tool calls (seed 000 McpConcurrency): `serial` runs one call at a time,
// `readOnlyParallel` lets calls to tools annotated read-only overlap while any other call runs alone, and
// `parallel` runs everything at once. Waiting is FIFO per server, so a writer is never starved by readers.
// Annotations are hints for scheduling only; they never count as approval.
import type { ServerConfig } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';

/** The concurrency policies. */
export type ConcurrencyPolicy = ServerConfig['concurrency'];

interface Waiter {
  shared: boolean;
  grant: () => void;
}

interface Lane {
  running: number;
  runningExclusive: boolean;
  queue: Waiter[];
}

/** Admits tool calls per server according to its policy. */
export class CallScheduler {
  readonly #lanes = new Map<string, Lane>();

  /**
   * Waits for a slot on the server. `readOnly` is the tool's read-only hint. Resolves with the release
   * function; rejects with the signal's reason when aborted while queued.
   */
  acquire(serverId: string, policy: ConcurrencyPolicy, readOnly: boolean, signal?: AbortSignal): Promise<() => void> {
    if (policy === 'parallel') return Promise.resolve(() => undefined);
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const shared = policy === 'readOnlyParallel' && readOnly;
    const lane = this.#lane(serverId);
    const release = this.#releaser(serverId, lane);
    // Nobody waiting and room now (the usual call): admitted at once, without queueing or an abort listener.
    if (lane.queue.length === 0 && (shared ? !lane.runningExclusive : lane.running === 0)) {
      lane.running += 1;
      if (!shared) lane.runningExclusive = true;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        shared,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = (): void => {
        const i = lane.queue.indexOf(waiter);
        if (i >= 0) lane.queue.splice(i, 1);
        this.#pump(serverId, lane);
        reject(signal ? abortReason(signal) : new AppError('cancelled', 'The call was cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      lane.queue.push(waiter);
      this.#pump(serverId, lane);
    });
  }

  /**
   * Admits the call now when nobody waits and there is room (the usual call), with no promise to wait on; undefined
   * when it has to queue (then `acquire`).
   */
  tryAcquire(serverId: string, policy: ConcurrencyPolicy, readOnly: boolean): (() => void) | undefined {
    if (policy === 'parallel') return noRelease;
    const shared = policy === 'readOnlyParallel' && readOnly;
    const lane = this.#lanes.get(serverId);
    if (lane && (lane.queue.length > 0 || (shared ? lane.runningExclusive : lane.running > 0))) return undefined;
    const admitted = lane ?? this.#lane(serverId);
    admitted.running += 1;
    if (!shared) admitted.runningExclusive = true;
    return this.#releaser(serverId, admitted);
  }

  /** Calls running and waiting on a server. */
  load(serverId: string): { running: number; queued: number } {
    const lane = this.#lanes.get(serverId);
    return { running: lane?.running ?? 0, queued: lane?.queue.length ?? 0 };
  }

  /** The release of one admitted call (idempotent). */
  #releaser(serverId: string, lane: Lane): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      lane.running -= 1;
      if (lane.running === 0) lane.runningExclusive = false;
      this.#pump(serverId, lane);
    };
  }

  #lane(serverId: string): Lane {
    let lane = this.#lanes.get(serverId);
    if (!lane) {
      lane = { running: 0, runningExclusive: false, queue: [] };
      this.#lanes.set(serverId, lane);
    }
    return lane;
  }

  #pump(serverId: string, lane: Lane): void {
    while (lane.queue.length > 0) {
      const head = lane.queue[0]!;
      const can = head.shared ? !lane.runningExclusive : lane.running === 0;
      if (!can) break;
      lane.queue.shift();
      lane.running += 1;
      if (!head.shared) lane.runningExclusive = true;
      head.grant();
    }
    if (lane.running === 0 && lane.queue.length === 0) this.#lanes.delete(serverId);
  }
}

/** The release of a call on a parallel server (nothing to give back). */
const noRelease = (): void => undefined;

/** Why a wait was aborted: the signal's own error, or a plain cancellation. */
function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new AppError('cancelled', 'The call was cancelled');
}
