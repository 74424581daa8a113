// The first window becomes visible or the start fails: shown at its first paint, shown anyway after the timeout,
// and a renderer that dies before either fails the start with its reason.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { firstShow, type FirstShowWindow } from '../../electron/app/first-show.js';

function fakeWindow(): FirstShowWindow & { shows: number; emitter: EventEmitter; contents: EventEmitter } {
  const emitter = new EventEmitter();
  const contents = new EventEmitter();
  const w = {
    shows: 0,
    emitter,
    contents,
    once: (event: 'ready-to-show', l: () => void) => emitter.once(event, l),
    show: () => void w.shows++,
    isDestroyed: () => false,
    webContents: { once: (event: 'render-process-gone', l: (e: unknown, d: { reason: string }) => void) => contents.once(event, l) },
  };
  return w;
}

describe('first show', () => {
  it('shows the window at its first paint, once', async () => {
    const win = fakeWindow();
    let told = 0;
    const p = firstShow(win, { timeoutMs: 60_000, onShown: () => told++ });
    win.emitter.emit('ready-to-show');
    await p;
    win.contents.emit('render-process-gone', {}, { reason: 'crashed' });
    expect(win.shows).toBe(1);
    expect(told).toBe(1);
  });

  it('shows a window that never painted after the timeout, and says so', async () => {
    const win = fakeWindow();
    const logged: string[] = [];
    await firstShow(win, { timeoutMs: 20, log: (m) => logged.push(m) });
    expect(win.shows).toBe(1);
    expect(logged[0]).toMatch(/had not painted after 20 ms/);
  });

  it('fails the start when the renderer dies before the window was shown', async () => {
    const win = fakeWindow();
    const p = firstShow(win, { timeoutMs: 60_000 });
    win.contents.emit('render-process-gone', {}, { reason: 'oom' });
    await expect(p).rejects.toThrow(/renderer process ended before the window could be shown \(oom\)/);
    win.emitter.emit('ready-to-show');
    expect(win.shows).toBe(0);
  });
});
