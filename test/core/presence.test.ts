// The shell's reports of its windows and pages: visible while any viewer is visible, attached while any is open.
import { describe, expect, it } from 'vitest';
import { Presence } from '../../electron/core/presence.js';

describe('Presence', () => {
  it('is visible while any viewer is visible and attached while any is open', () => {
    const p = new Presence();
    const seen: string[] = [];
    p.onChange(() => seen.push(`${p.visible}/${p.attached}`));
    expect([p.visible, p.attached]).toEqual([false, false]);
    p.set('a', 'hidden');
    p.set('b', 'visible');
    p.set('b', 'visible'); // no change, no call
    p.set('b', undefined);
    p.set('a', undefined);
    expect(seen).toEqual(['false/true', 'true/true', 'false/true', 'false/false']);
  });
});
