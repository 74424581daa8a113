// The desktop window's state reaches the core: shown or minimized counts as visible, hidden does not, closed is gone.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { reportWindowPresence, type PresenceWindow } from '../../electron/app/window-presence.js';
import { Presence } from '../../electron/core/presence.js';

class FakeWindow extends EventEmitter implements PresenceWindow {
  readonly id = 7;
  visible = false;
  minimized = false;
  destroyed = false;
  isVisible(): boolean {
    return this.visible;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

describe('reportWindowPresence', () => {
  it('follows show, minimize, hide and close', () => {
    const win = new FakeWindow();
    const presence = new Presence();
    reportWindowPresence(win, presence);
    expect([presence.attached, presence.visible]).toEqual([true, false]);
    win.visible = true;
    win.emit('show');
    expect(presence.visible).toBe(true);
    win.visible = false;
    win.minimized = true;
    win.emit('minimize');
    expect(presence.visible).toBe(true);
    win.minimized = false;
    win.emit('hide');
    expect([presence.attached, presence.visible]).toEqual([true, false]);
    win.destroyed = true;
    win.emit('closed');
    expect(presence.attached).toBe(false);
  });
});
