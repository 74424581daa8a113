// The one byte-count format: whole units without decimals, others to one decimal, small counts in bytes.
import { describe, expect, it } from 'vitest';
import { formatSize } from '../../shared/format-size.js';

describe('formatSize', () => {
  it('writes bytes, KiB and MiB in plain words', () => {
    expect(formatSize(0)).toBe('0 bytes');
    expect(formatSize(1)).toBe('1 byte');
    expect(formatSize(1023)).toBe('1023 bytes');
    expect(formatSize(1024)).toBe('1 KiB');
    expect(formatSize(1536)).toBe('1.5 KiB');
    expect(formatSize(16 * 1024 * 1024)).toBe('16 MiB');
    expect(formatSize(8.25 * 1024 * 1024)).toBe('8.3 MiB');
  });
});
