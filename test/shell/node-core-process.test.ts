// How a Node core's end is read: in words for the notice, and whether it was killed from outside (restarted however
// often that happens) or failed by itself (counted towards giving up on a crash loop).
import { describe, expect, it } from 'vitest';
import { describeExit, killedFromOutside } from '../../electron/shell/node-core-process.js';

describe('a Node core process ending', () => {
  it.each([
    ['SIGKILL', true],
    ['SIGTERM', true],
    ['SIGSEGV', false],
    ['SIGABRT', false],
    [null, false],
  ] as const)('signal %s is a kill from outside: %s', (signal, outside) => {
    expect(killedFromOutside(signal)).toBe(outside);
  });

  it('names the cause', () => {
    expect(describeExit(null, 'SIGKILL')).toBe('killed by SIGKILL');
    expect(describeExit(70, null)).toBe('an unexpected error in the core');
    expect(describeExit(1, null)).toBe('exited with code 1');
  });
});
