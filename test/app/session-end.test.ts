// The end of the session quits through the held quit: on Windows the main window's query-session-end is held and
// starts the quit (session-end starts it too); on Linux powerMonitor's shutdown is held and starts it; macOS and
// other platforms add nothing (their own quit emits before-quit).
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { sessionEnd, type SessionWindow, type ShutdownMonitor } from '../../electron/app/session-end.js';

/** Emits like Electron and says whether a listener prevented the default. */
function emitPreventable(target: EventEmitter, event: string): boolean {
  let prevented = false;
  target.emit(event, { preventDefault: () => (prevented = true) });
  return prevented;
}

function setUp(platform: NodeJS.Platform) {
  const quits: string[] = [];
  const logs: string[] = [];
  const handling = sessionEnd({ platform, quit: () => quits.push('quit'), log: (m) => logs.push(m) });
  const win = new EventEmitter();
  const monitor = new EventEmitter();
  handling.window(win as unknown as SessionWindow);
  handling.monitor(monitor as unknown as ShutdownMonitor);
  return { quits, logs, win, monitor };
}

describe('the end of the session', () => {
  it('on Windows holds query-session-end and quits; session-end quits too', () => {
    const { quits, logs, win, monitor } = setUp('win32');
    expect(emitPreventable(win, 'query-session-end')).toBe(true);
    expect(quits).toEqual(['quit']);
    expect(emitPreventable(win, 'session-end')).toBe(false);
    expect(quits).toEqual(['quit', 'quit']);
    expect(logs[0]).toMatch(/Windows is ending the session/);
    // powerMonitor's shutdown does not fire on Windows; nothing listens for it there.
    expect(monitor.listenerCount('shutdown')).toBe(0);
  });

  it('on Linux holds powerMonitor’s shutdown and quits', () => {
    const { quits, win, monitor } = setUp('linux');
    expect(emitPreventable(monitor, 'shutdown')).toBe(true);
    expect(quits).toEqual(['quit']);
    // Electron's typings give the listener no event: one without it still quits.
    monitor.emit('shutdown');
    expect(quits).toEqual(['quit', 'quit']);
    expect(win.listenerCount('query-session-end')).toBe(0);
  });

  it('on macOS adds nothing (the app quits through before-quit)', () => {
    const { quits, win, monitor } = setUp('darwin');
    expect(win.listenerCount('query-session-end') + win.listenerCount('session-end') + monitor.listenerCount('shutdown')).toBe(0);
    expect(quits).toEqual([]);
  });
});
