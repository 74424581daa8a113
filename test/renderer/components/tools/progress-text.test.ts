// Progress numbers as shown beside a running call.
import { describe, expect, it } from 'vitest';
import { progressText } from '../../../../renderer/src/components/tools/progress-text';

describe('progressText', () => {
  it('says n of N (p %) when the server gives a total', () => {
    expect(progressText(3, 10)).toBe('3 of 10 (30 %)');
    expect(progressText(1, 3)).toBe('1 of 3 (33 %)');
    expect(progressText(2500, 10000)).toBe('2,500 of 10,000 (25 %)');
    expect(progressText(0.5, 1)).toBe('0.5 of 1 (50 %)');
  });

  it('caps the share at 100 % for a server that overshoots', () => {
    expect(progressText(12, 10)).toBe('12 of 10 (100 %)');
  });

  it('without a usable total only the count; without progress nothing', () => {
    expect(progressText(7, undefined)).toBe('7');
    expect(progressText(7, 0)).toBe('7');
    expect(progressText(undefined, 10)).toBeUndefined();
    expect(progressText(Number.NaN, 10)).toBeUndefined();
  });
});
