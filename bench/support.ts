// Shared pieces for benchmarks: bundled fixtures (no tsx start-up cost), a host with the
// real session manager, timing helpers.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerConfigInput } from '../shared/config.js';
import type { Host } from '../electron/core/host.js';
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
export function benchHost(dir: string, cacheFile?: string): Host {
  const credentials = new MemoryCredentialStore();
  return testCore({
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
