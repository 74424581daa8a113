// The Electron push path: an event payload structured clone could not carry is skipped, never thrown.
import { describe, expect, it } from 'vitest';
import { pushEvent } from '../../electron/ipc/register-ipc.js';

describe('pushEvent', () => {
  it('sends ordinary payloads and skips ones that cannot be cloned or make send throw', () => {
    const sent: unknown[] = [];
    expect(pushEvent((_e, p) => sent.push(p), 'app.notices', { notices: [] })).toBe(true);
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(pushEvent((_e, p) => sent.push(p), 'app.notices', { notices: deep })).toBe(false);
    expect(
      pushEvent(
        () => {
          throw new Error('Render frame was disposed');
        },
        'app.notices',
        {},
      ),
    ).toBe(false);
    expect(sent).toEqual([{ notices: [] }]);
  });
});
