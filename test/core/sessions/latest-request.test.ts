// The per-server serializer behind restarts and connects: one request at a time per key, and a request still
// waiting when a newer one arrives answers with the newer one's outcome instead of running.
import { describe, expect, it } from 'vitest';
import { LatestRequest } from '../../../electron/core/sessions/latest-request.js';

describe('LatestRequest', () => {
  it('runs the running request and the latest; the ones between answer with the latest', async () => {
    const requests = new LatestRequest<string>();
    const ran: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = requests.run('a', async () => {
      ran.push('first');
      await gate;
      return 'first';
    });
    const middle = requests.run('a', () => {
      ran.push('middle');
      return Promise.resolve('middle');
    });
    const last = requests.run('a', () => {
      ran.push('last');
      return Promise.resolve('last');
    });
    const other = requests.run('b', () => Promise.resolve('other key'));
    expect(await other).toBe('other key');
    release();
    expect(await Promise.all([first, middle, last])).toEqual(['first', 'last', 'last']);
    expect(ran).toEqual(['first', 'last']);
    expect(requests.busy('a')).toBe(false);
  });

  it('a failure reaches the requests it answers for, and the next request still runs', async () => {
    const requests = new LatestRequest<number>();
    const failing = requests.run('a', () => Promise.reject(new Error('no')));
    await expect(failing).rejects.toThrow('no');
    expect(await requests.run('a', () => Promise.resolve(2))).toBe(2);
  });
});
