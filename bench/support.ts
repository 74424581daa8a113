// Shared pieces for benchmarks: bundled fixtures (no tsx start-up cost), a host with the
// real session manager, timing helpers.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerConfigInput } from '../shared/config.js';
import type { Host } from '../electron/core/host.js';
import type { CorePorts } from '../electron/core/compose.js';
import { testCore } from '../test/shared/support/harness.js';
import { launchFingerprint } from '../electron/core/servers/approval.js';
import { SessionManager } from '../electron/core/sessions/session-manager.js';
import { createTransport } from '../electron/core/transports/create-transport.js';
import { MemoryCredentialStore } from '../electron/platform/memory-credential-store.js';
import { createSettingsStore } from '../electron/platform/settings-store.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Bundles a fixture server into a plain .mjs so every spawn costs only Node's start-up. */
export async function bundleFixture(rel: string): Promise<string> {
  // Inside the repo (.tmp is git-ignored) so the bundle resolves node_modules.
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const out = join(mkdtempSync(join(root, '.tmp', 'bench-')), 'server.mjs');
  await build({
    entryPoints: [join(root, rel)],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'error',
  });
  return out;
}

/** A fresh temp folder. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'sb-bench-'));
}

/** The built headless Switchboard on `dataDir` (the testers' kit's launcher); `stop` throws when it did not quit cleanly. */
export async function startHeadlessApp(dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const { launchHeadless } = await import('../testing/index.js');
  const app = await launchHeadless({ dataDir });
  return {
    url: app.url,
    stop: async () => {
      const report = await app.stop();
      if (report.problems.length > 0) throw new Error(`Switchboard did not stop cleanly:\n${report.problems.join('\n')}`);
    },
  };
}

/** A Host with the real SessionManager and transports, settings in `dir`. */
export function benchHost(dir: string, cacheFile?: string, ports: Partial<CorePorts> = {}): Host {
  const credentials = new MemoryCredentialStore();
  return testCore({
    ...ports,
    settingsStore: createSettingsStore(dir),
    credentials,
    createSessions: (h) => new SessionManager(h, { credentials, createTransport, ...(cacheFile ? { discoveryCacheFile: cacheFile } : {}) }),
  });
}

/** Adds and approves a stdio server running `script` with this Node. */
export async function addStdio(host: Host, id: string, script: string, extra: Partial<ServerConfigInput> = {}): Promise<void> {
  await host.add({
    id,
    name: id,
    startup: 'manual',
    transport: { type: 'stdio', command: process.execPath, args: [script], env: {} },
    ...extra,
  });
  const config = host.config(id);
  if (config.transport.type === 'stdio') await host.approve(id, launchFingerprint(config.transport));
}

/** Median of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** Percentile (0–100) of numbers. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

/** Milliseconds with two decimals. */
export function ms(n: number): string {
  return `${n.toFixed(n < 10 ? 2 : 0)} ms`;
}

/** Largest of numbers without spreading them into arguments (a spread of 100k+ samples overflows the stack). */
export function maxOf(xs: number[]): number {
  let m = -Infinity;
  for (const x of xs) if (x > m) m = x;
  return m;
}

/** One side of an interleaved comparison: `run` does one round and returns its figure (e.g. that round's p50 in ms). */
export interface Side {
  name: string;
  run(round: number): Promise<number>;
}

/** What `interleave` found: per-side medians of the round figures, and the median and range of the per-round B/A ratios. */
export interface Interleaved {
  a: number;
  b: number;
  ratio: number;
  low: number;
  high: number;
  load: number;
}

/** The 1-minute load average and the core count, for every printed figure (the machine is shared). */
export function loadLine(): string {
  return `load ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores`;
}

/**
 * Runs A and B alternately for `rounds` rounds (A first on even rounds, B first on odd ones, so neither always
 * follows a warm-up or a GC of the other), then prints each side's median figure and the median of the per-round
 * ratios B/A with their range and the load average. One run, one machine state: the ratio is what to compare.
 */
export async function interleave(label: string, rounds: number, a: Side, b: Side, unit = 'ms'): Promise<Interleaved> {
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  const loads: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let fa: number;
    let fb: number;
    if (r % 2 === 0) {
      fa = await a.run(r);
      fb = await b.run(r);
    } else {
      fb = await b.run(r);
      fa = await a.run(r);
    }
    as.push(fa);
    bs.push(fb);
    ratios.push(fb / fa);
    loads.push(loadavg()[0]!);
  }
  const result: Interleaved = {
    a: median(as),
    b: median(bs),
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: maxOf(ratios),
    load: median(loads),
  };
  const fmt = (n: number): string => (unit === 'ms' ? ms(n) : `${n.toFixed(n < 10 ? 2 : 0)} ${unit}`);
  console.log(
    `${label}: ${a.name} ${fmt(result.a)}, ${b.name} ${fmt(result.b)}; ${b.name} / ${a.name} = ${result.ratio.toFixed(2)}× ` +
      `(range ${result.low.toFixed(2)}–${result.high.toFixed(2)}×, ${rounds} interleaved rounds, load ${result.load.toFixed(2)} on ${cpus().length} cores)`,
  );
  return result;
}

/** Times `n` sequential calls of `once` after `warmup` untimed ones; returns the p50, p99 (ms) and calls per second. */
export async function timed(
  n: number,
  once: (i: number) => Promise<void>,
  warmup = Math.min(50, n),
): Promise<{ p50: number; p99: number; perSecond: number; samples: number[] }> {
  for (let i = 0; i < warmup; i++) await once(i);
  const samples: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await once(i);
    samples.push(performance.now() - s);
  }
  const total = performance.now() - t0;
  return { p50: median(samples), p99: percentile(samples, 99), perSecond: (n / total) * 1000, samples };
}
