// Quitting waits for the core's shutdown: the first quit is held, the shutdown runs once, later quit requests are
// absorbed, and the app quits for real when it is done, or after the bound when it is not.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installQuitHandler, type QuitApp } from '../../electron/app/quit.js';

class FakeApp extends EventEmitter implements QuitApp {
  quits = 0;
  /** Emits before-quit like Electron: returns whether a listener prevented it. */
  requestQuit(): boolean {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    return prevented;
  }
  quit(): void {
    this.quits += 1;
    // Electron emits before-quit again on app.quit().
    this.requestQuit();
  }
}

describe('quit', () => {
  it('holds the first quit until the shutdown is done, absorbs the others, then quits for real', async () => {
    const app = new FakeApp();
    let release: () => void = () => undefined;
    let shutdowns = 0;
    const handler = installQuitHandler(app, () => {
      shutdowns += 1;
      return new Promise<void>((resolve) => (release = resolve));
    });
    expect(app.requestQuit()).toBe(true);
    expect(handler.state).toBe('running');
    expect(app.requestQuit()).toBe(true);
    expect(shutdowns).toBe(1);
    expect(app.quits).toBe(0);
    release();
    await handler.finished;
    expect(handler.state).toBe('done');
    expect(app.quits).toBe(1);
    expect(app.requestQuit()).toBe(false);
  });

  it('quits after the bound when the shutdown hangs, and says so', async () => {
    const app = new FakeApp();
    const logs: string[] = [];
    const handler = installQuitHandler(app, () => new Promise(() => undefined), { timeoutMs: 50, log: (_l, m) => logs.push(m) });
    app.requestQuit();
    await handler.finished;
    expect(app.quits).toBe(1);
    expect(logs).toEqual(['shutdown did not finish within 0.05 s; quitting anyway']);
  });

  it('quits even when the shutdown fails', async () => {
    const app = new FakeApp();
    const handler = installQuitHandler(app, () => Promise.reject(new Error('boom')));
    app.requestQuit();
    await handler.finished;
    expect(app.quits).toBe(1);
  });
});
