// Pure helpers of the session manager: backoff steps, the log ring, the discovery cache.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '../../../shared/config.js';
import type { AppNotice } from '../../../shared/contract.js';
import { backoffDelay } from '../../../electron/core/sessions/backoff.js';
import { configFingerprint, DiscoveryCache, LEGACY_VERDICT_TTL_MS } from '../../../electron/core/sessions/discovery-cache.js';
import { LogRing } from '../../../electron/core/sessions/log-ring.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';

const config = ServerConfigSchema.parse({ id: 'a', name: 'a', transport: { type: 'stdio', command: 'node', args: ['x.js'] } });

describe('backoff', () => {
  it('doubles from 1 s and caps at 60 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50].map((f) => backoffDelay(f))).toEqual([0, 1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
  });
});

describe('log ring', () => {
  it('keeps the last 1,000 entries with monotonic sequence numbers and strips control characters', () => {
    const ring = new LogRing();
    for (let i = 1; i <= 1500; i++) ring.push('stderr', 'info', `line ${i}\u001b[31m\u202e`);
    const entries = ring.entries();
    expect(entries).toHaveLength(1000);
    expect(entries[0]).toMatchObject({ seq: 501, text: 'line 501' });
    expect(entries.at(-1)).toMatchObject({ seq: 1500, text: 'line 1500' });
  });
});

describe('discovery cache', () => {
  it('returns a verdict only for the same config fingerprint, expires legacy verdicts, and survives a restart', async () => {
    const dir = tempDir('sb-cache-');
    try {
      let now = 1_000;
      const file = join(dir, 'cache.json');
      const cache = new DiscoveryCache({ file, now: () => now });
      const fp = configFingerprint(config);
      cache.set('a', fp, { kind: 'legacy' });
      expect(cache.get('a', fp)).toEqual({ kind: 'legacy' });
      const changed = ServerConfigSchema.parse({ ...config, transport: { ...config.transport, args: ['y.js'] } });
      expect(configFingerprint(changed)).not.toBe(fp);
      expect(cache.get('a', configFingerprint(changed))).toBeUndefined();
      await cache.flush();
      expect(new DiscoveryCache({ file, now: () => now }).get('a', fp)).toEqual({ kind: 'legacy' });
      now += LEGACY_VERDICT_TTL_MS + 1;
      expect(cache.get('a', fp)).toBeUndefined();
      // A corrupt file is only a missed optimisation, but it is moved aside with a notice, not dropped.
      writeFileSync(file, '{not json');
      const notices: AppNotice[] = [];
      expect(new DiscoveryCache({ file, onNotice: (n) => notices.push(n) }).get('a', fp)).toBeUndefined();
      const aside = readdirSync(dir).filter((f) => f.startsWith('cache.corrupt-'));
      expect(aside).toHaveLength(1);
      expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe('{not json');
      expect(notices).toEqual([expect.objectContaining({ id: 'discovery-cache-corrupt', message: expect.stringContaining(aside[0]!) })]);
    } finally {
      cleanup(dir);
    }
  });
});
