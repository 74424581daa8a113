// Runs one key's requests one at a time, and lets the latest win: a request still waiting when a newer one
// arrives for the same key is not run at all and answers with the newer one's outcome. Five racing restarts of a
// server thus become the running one plus the last, never a pile of interleaved closes and connects.

interface Ticket<T> {
  resolve: (value: T | Promise<T>) => void;
  reject: (reason: unknown) => void;
  promise: Promise<T>;
}

interface Lane<T> {
  tail: Promise<void>;
  latest: Ticket<T>;
}

function ticket<T>(): Ticket<T> {
  let resolve!: Ticket<T>['resolve'];
  let reject!: Ticket<T>['reject'];
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { resolve, reject, promise };
}

/** Per-key serializer where a waiting request is superseded by a newer one. */
export class LatestRequest<T> {
  readonly #lanes = new Map<string, Lane<T>>();

  /** Runs `task` after the key's running request; if a newer request arrives first, answers with its outcome. */
  run(key: string, task: () => Promise<T>): Promise<T> {
    const mine = ticket<T>();
    const runMine = async (): Promise<void> => {
      try {
        mine.resolve(await task());
      } catch (error) {
        mine.reject(error);
      }
    };
    const existing = this.#lanes.get(key);
    const lane: Lane<T> = existing ?? { tail: Promise.resolve(), latest: mine };
    lane.latest = mine;
    if (!existing) this.#lanes.set(key, lane);
    // Nothing ahead: it starts now. Otherwise it waits its turn, and is skipped if superseded meanwhile — the newer
    // request (or the one that superseded that) then answers for it.
    const step = existing
      ? lane.tail.then(() => {
          if (lane.latest !== mine) {
            mine.resolve(lane.latest.promise);
            return;
          }
          return runMine();
        })
      : runMine();
    lane.tail = step;
    void step.then(() => {
      if (lane.tail === step) this.#lanes.delete(key);
    });
    return mine.promise;
  }

  /** Whether a request for the key is running or waiting. */
  busy(key: string): boolean {
    return this.#lanes.has(key);
  }
}
