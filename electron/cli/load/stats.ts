// Latency percentiles and rates for `switchboard load`, from the recorded samples.

/** What a load run measured. */
export interface LoadReport {
  requests: number;
  ok: number;
  errors: number;
  /** errors / requests (0 when none were made). */
  errorRate: number;
  /** Wall time of the run, seconds. */
  durationS: number;
  /** Completed requests per second. */
  throughput: number;
  latencyMs: { min: number; mean: number; p50: number; p95: number; p99: number; max: number };
  /** Error codes seen, with how often. */
  errorCodes: Record<string, number>;
}

/** The nearest-rank percentile of sorted values (0 for none). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

const round = (n: number): number => Math.round(n * 100) / 100;

/** The report for these samples over `durationS`. */
export function loadReport(samples: readonly { ms: number; ok: boolean; code?: string }[], durationS: number): LoadReport {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const errors = samples.filter((s) => !s.ok);
  const errorCodes: Record<string, number> = {};
  for (const e of errors) errorCodes[e.code ?? 'error'] = (errorCodes[e.code ?? 'error'] ?? 0) + 1;
  return {
    requests: samples.length,
    ok: samples.length - errors.length,
    errors: errors.length,
    errorRate: samples.length === 0 ? 0 : round(errors.length / samples.length),
    durationS: round(durationS),
    throughput: durationS > 0 ? round(samples.length / durationS) : 0,
    latencyMs: {
      min: round(sorted[0] ?? 0),
      mean: round(sorted.length === 0 ? 0 : sorted.reduce((a, b) => a + b, 0) / sorted.length),
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted[sorted.length - 1] ?? 0),
    },
    errorCodes,
  };
}
