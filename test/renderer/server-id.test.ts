// The Add dialog derives the id from the name.
import { describe, expect, it } from 'vitest';
import { ServerIdSchema } from '../../shared/config';
import { deriveServerId } from '../../renderer/src/lib/server-id';

describe('deriveServerId', () => {
  it('lowercases and turns other characters into single dashes', () => {
    expect(deriveServerId('My GitHub (work)')).toBe('my-github-work');
    expect(deriveServerId('Everything Server')).toBe('everything-server');
    expect(deriveServerId('snake_case OK')).toBe('snake_case-ok');
    expect(deriveServerId('Café Übersicht')).toBe('cafe-ubersicht');
  });

  it('falls back to "server" and keeps ids valid and short', () => {
    expect(deriveServerId('')).toBe('server');
    expect(deriveServerId('!!!')).toBe('server');
    expect(deriveServerId('日本語')).toBe('server');
    const long = deriveServerId('a'.repeat(100));
    expect(long).toHaveLength(64);
    for (const name of ['-x-', '__y', 'Z'.repeat(80), '  spaced  out ', 'a-'.repeat(40)]) {
      expect(ServerIdSchema.safeParse(deriveServerId(name)).success, name).toBe(true);
    }
  });

  it('adds a number when the id is taken', () => {
    expect(deriveServerId('Demo', ['demo'])).toBe('demo-2');
    expect(deriveServerId('Demo', ['demo', 'demo-2'])).toBe('demo-3');
    const taken = 'b'.repeat(64);
    const next = deriveServerId('b'.repeat(70), [taken]);
    expect(next).toBe(`${'b'.repeat(62)}-2`);
    expect(ServerIdSchema.safeParse(next).success).toBe(true);
  });
});
