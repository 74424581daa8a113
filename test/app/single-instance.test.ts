// One instance: the second-instance handler exists from the moment the lock is taken; a launch before the window is
// shown brings it forward as soon as it is; later launches restore and focus it at once.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { claimSingleInstance, type FocusableWindow, type InstanceApp } from '../../electron/app/single-instance.js';

class FakeApp extends EventEmitter implements InstanceApp {
  constructor(readonly gotLock: boolean) {
    super();
  }
  requestSingleInstanceLock(): boolean {
    return this.gotLock;
  }
}

function fakeWindow(): FocusableWindow & { calls: string[]; visible: boolean; minimized: boolean } {
  const w = {
    calls: [] as string[],
    visible: false,
    minimized: false,
    isDestroyed: () => false,
    isMinimized: () => w.minimized,
    isVisible: () => w.visible,
    restore: () => void w.calls.push('restore'),
    show: () => void w.calls.push('show'),
    focus: () => void w.calls.push('focus'),
  };
  return w;
}

describe('single instance', () => {
  it('registers nothing when another instance holds the lock', () => {
    const app = new FakeApp(false);
    expect(claimSingleInstance(app, () => undefined).acquired).toBe(false);
    expect(app.listenerCount('second-instance')).toBe(0);
  });

  it('focuses the window once it is ready when the second launch came first', () => {
    const app = new FakeApp(true);
    const slot: { win?: ReturnType<typeof fakeWindow> } = {};
    const instance = claimSingleInstance(app, () => slot.win);
    expect(app.listenerCount('second-instance')).toBe(1);
    app.emit('second-instance');
    const win = fakeWindow();
    slot.win = win;
    win.visible = true;
    instance.windowReady(win);
    expect(win.calls).toEqual(['focus']);
    instance.windowReady(win);
    expect(win.calls).toEqual(['focus']);
  });

  it('restores and focuses a minimized window at once', () => {
    const app = new FakeApp(true);
    const win = fakeWindow();
    win.visible = true;
    win.minimized = true;
    claimSingleInstance(app, () => win);
    app.emit('second-instance');
    expect(win.calls).toEqual(['restore', 'focus']);
  });
});

describe('single instance after the first window', () => {
  it('shows a hidden window (Cmd+H) and focuses it', () => {
    const app = new FakeApp(true);
    const win = fakeWindow();
    const instance = claimSingleInstance(app, () => win);
    win.visible = true;
    instance.windowReady(win);
    win.visible = false;
    app.emit('second-instance');
    expect(win.calls).toEqual(['show', 'focus']);
  });

  it('opens the window again when the person closed it and the app kept running', () => {
    const app = new FakeApp(true);
    let reopened = 0;
    const win = fakeWindow();
    let current: FocusableWindow | undefined = win;
    const instance = claimSingleInstance(
      app,
      () => current,
      () => reopened++,
    );
    win.visible = true;
    instance.windowReady(win);
    current = undefined;
    app.emit('second-instance');
    expect(reopened).toBe(1);
    expect(win.calls).toEqual([]);
  });
});
