// Login-shell PATH resolution: bounded by a timeout, falls back to our own PATH, cached once.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { computeLoginPath, mergePaths, resetLoginPathCache, resolveLoginPath } from '../../../electron/core/transports/login-path.js';

describe('login PATH', () => {
  it('puts the login shell PATH first and keeps our own directories after it', async () => {
    const result = await computeLoginPath(1000, () => Promise.resolve({ PATH: '/opt/homebrew/bin:/usr/bin' }));
    expect(result.source).toBe('login-shell');
    expect(result.path.startsWith('/opt/homebrew/bin:/usr/bin')).toBe(true);
    expect(mergePaths('/a:/b', '/b:/c')).toBe('/a:/b:/c');
  });

  it('falls back to process.env.PATH when the shell hangs past the timeout', async () => {
    vi.useFakeTimers();
    onTestFinished(() => {
      vi.useRealTimers();
    });
    let result: Awaited<ReturnType<typeof computeLoginPath>> | undefined;
    void computeLoginPath(200, () => new Promise(() => undefined)).then((r) => (result = r));
    await vi.advanceTimersByTimeAsync(199);
    expect(result).toBeUndefined();
    // The 200 ms timeout takes effect, not the hanging shell.
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toMatchObject({ source: 'timeout', path: process.env.PATH ?? '' });
  });

  it('falls back to process.env.PATH when the shell fails', async () => {
    const result = await computeLoginPath(1000, () => Promise.reject(new Error('no shell')));
    expect(result).toMatchObject({ source: 'error', path: process.env.PATH ?? '' });
  });

  it('resolves the real login shell once within the bound and caches it', async () => {
    resetLoginPathCache();
    const first = resolveLoginPath();
    const second = resolveLoginPath();
    expect(second).toBe(first);
    const result = await first;
    console.log(`login PATH: source ${result.source}, ${result.elapsedMs} ms`);
    expect(result.elapsedMs).toBeLessThan(6000);
    expect(result.path.length).toBeGreaterThan(0);
    resetLoginPathCache();
  });
});
