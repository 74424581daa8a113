// Login-shell PATH resolution: bounded by a timeout, falls back to our own PATH, cached once.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  computeLoginPath,
  LOGIN_PATH_TIMEOUT_MS,
  mergePaths,
  resetLoginPathCache,
  resolveLoginPath,
} from '../../../electron/core/transports/login-path.js';

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

  it('resolves the real login shell once and caches it', async () => {
    resetLoginPathCache();
    const first = resolveLoginPath();
    const second = resolveLoginPath();
    expect(second).toBe(first);
    const result = await first;
    console.log(`login PATH: source ${result.source}, ${result.elapsedMs} ms`);
    expect(['login-shell', 'process', 'timeout', 'error']).toContain(result.source);
    expect(result.path.length).toBeGreaterThan(0);
    resetLoginPathCache();
  });

  it('the cached resolution is bounded by LOGIN_PATH_TIMEOUT_MS: a shell that hangs gives way exactly then', async () => {
    vi.useFakeTimers();
    resetLoginPathCache();
    onTestFinished(() => {
      resetLoginPathCache();
      vi.useRealTimers();
    });
    let result: Awaited<ReturnType<typeof resolveLoginPath>> | undefined;
    void resolveLoginPath({ reader: () => new Promise(() => undefined) }).then((r) => (result = r));
    await vi.advanceTimersByTimeAsync(LOGIN_PATH_TIMEOUT_MS - 1);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toMatchObject({ source: 'timeout', path: process.env.PATH ?? '', elapsedMs: LOGIN_PATH_TIMEOUT_MS });
  });
});
