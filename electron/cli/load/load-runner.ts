// Drives one tool with N concurrent callers until a request count or a duration is reached, optionally paced to a
// rate; every sample is one whole call through the core (as the UI makes it), timed here.

/** How hard and how long to push. */
export interface LoadPlan {
  concurrency: number;
  /** Stop after this many requests have been started. */
  requests?: number;
  /** Stop starting requests after this many seconds. */
  durationS?: number;
  /** At most this many requests started per second, overall. */
  rate?: number;
}

/** One call's sample. */
export interface Sample {
  ms: number;
  ok: boolean;
  code?: string;
}

/** The clock and the sleep (tests may pass their own). */
export interface LoadClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** Runs the plan; `call` makes one request and says whether it succeeded. Resolves with every sample and the wall time. */
export async function runLoad(
  plan: LoadPlan,
  call: () => Promise<{ ok: boolean; code?: string }>,
  clock: LoadClock,
): Promise<{ samples: Sample[]; elapsedS: number }> {
  const samples: Sample[] = [];
  const start = clock.now();
  let started = 0;
  const more = (): boolean =>
    (plan.requests === undefined || started < plan.requests) &&
    (plan.durationS === undefined || clock.now() - start < plan.durationS * 1000);
  const worker = async (): Promise<void> => {
    while (more()) {
      const index = started++;
      if (plan.rate !== undefined) {
        // The index-th request may start index/rate seconds after the start: pacing holds the overall rate.
        const due = start + (index / plan.rate) * 1000;
        const wait = due - clock.now();
        if (wait > 0) await clock.sleep(wait);
        if (plan.durationS !== undefined && clock.now() - start >= plan.durationS * 1000) return;
      }
      const t0 = clock.now();
      const result = await call().catch((err: unknown) => ({ ok: false, code: err instanceof Error ? err.name : 'error' }));
      samples.push({ ms: clock.now() - t0, ok: result.ok, ...(result.code !== undefined ? { code: result.code } : {}) });
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, () => worker()));
  return { samples, elapsedS: (clock.now() - start) / 1000 };
}
