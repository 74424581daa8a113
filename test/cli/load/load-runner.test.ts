// The load loop on a simulated clock: it starts exactly the requested number of calls, stops starting them once the
// duration is over, paces to the rate, and the report's percentiles are nearest-rank.
import { describe, expect, it } from 'vitest';
import { runLoad, type LoadClock } from '../../../electron/cli/load/load-runner.js';
import { loadReport, percentile } from '../../../electron/cli/load/stats.js';

/** A clock that moves only when a call or a sleep says so. */
function simulated(): LoadClock & { t: number } {
  const c = {
    t: 0,
    now: () => c.t,
    sleep: async (ms: number) => {
      c.t += ms;
    },
  };
  return c;
}

describe('runLoad', () => {
  it('starts exactly --requests calls with N in flight at most', async () => {
    const clock = simulated();
    let inFlight = 0;
    let most = 0;
    let calls = 0;
    const { samples } = await runLoad(
      { concurrency: 3, requests: 10 },
      async () => {
        const n = ++calls;
        most = Math.max(most, ++inFlight);
        await Promise.resolve();
        clock.t += 5;
        inFlight--;
        return n % 5 === 0 ? { ok: false, code: 'tool_error' } : { ok: true };
      },
      clock,
    );
    expect(calls).toBe(10);
    expect(samples).toHaveLength(10);
    expect(most).toBe(3);
    const report = loadReport(samples, 1);
    expect(report).toMatchObject({ requests: 10, errors: 2, errorRate: 0.2, errorCodes: { tool_error: 2 } });
  });

  it('stops starting calls when the duration is over', async () => {
    const clock = simulated();
    const { samples } = await runLoad(
      { concurrency: 1, durationS: 1 },
      async () => {
        clock.t += 100;
        return { ok: true };
      },
      clock,
    );
    expect(samples).toHaveLength(10);
  });

  it('paces starts to the rate', async () => {
    const clock = simulated();
    const starts: number[] = [];
    await runLoad(
      { concurrency: 4, requests: 5, rate: 10 },
      async () => {
        starts.push(clock.t);
        return { ok: true };
      },
      clock,
    );
    expect(Math.max(...starts)).toBeGreaterThanOrEqual(400);
  });
});

describe('percentile', () => {
  it('is nearest-rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(values, 50), percentile(values, 95), percentile(values, 99), percentile(values, 100)]).toEqual([50, 95, 99, 100]);
    expect(percentile([], 50)).toBe(0);
  });
});
