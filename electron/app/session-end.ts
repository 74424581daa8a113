// The operating system ending the session (shut down, restart, log off) quits through the same held quit as the
// menu, so pending writes reach the disk first. Windows sends no before-quit then: the main window's
// query-session-end is held (the session waits while Switchboard writes, within the quit's bound) and starts the
// quit; session-end, the last word, starts it too in case the first was missed. On Linux powerMonitor's shutdown is
// held the same way (a delay lock) and starts the quit. macOS ends an app through its own quit, which emits
// before-quit already.

/** An event whose default the listener may prevent (as Electron passes it). */
export interface Preventable {
  preventDefault(): void;
}

/** The window events used on Windows (BrowserWindow). */
export interface SessionWindow {
  on(event: 'query-session-end' | 'session-end', listener: (event: Preventable) => void): unknown;
}

/** Electron's powerMonitor as used here (its 'shutdown' event is preventable on Linux). */
export interface ShutdownMonitor {
  on(event: 'shutdown', listener: (...args: unknown[]) => void): unknown;
}

/** What session-end handling needs. */
export interface SessionEndOptions {
  platform: NodeJS.Platform;
  /** Starts the app's quit (the held quit handler runs the shutdown). */
  quit: () => void;
  /** Where a session end is reported. */
  log?: (message: string) => void;
}

const preventable = (value: unknown): value is Preventable =>
  typeof value === 'object' && value !== null && typeof (value as { preventDefault?: unknown }).preventDefault === 'function';

/** Handles the end of the session: `monitor` once at start, `window` for each main window. */
export function sessionEnd(opts: SessionEndOptions): { monitor(m: ShutdownMonitor): void; window(w: SessionWindow): void } {
  const end = (why: string): void => {
    opts.log?.(`${why}: quitting`);
    opts.quit();
  };
  return {
    monitor(m) {
      if (opts.platform !== 'linux') return;
      m.on('shutdown', (...args) => {
        if (preventable(args[0])) args[0].preventDefault();
        end('the system is shutting down');
      });
    },
    window(w) {
      if (opts.platform !== 'win32') return;
      w.on('query-session-end', (event) => {
        event.preventDefault();
        end('Windows is ending the session');
      });
      w.on('session-end', () => end('Windows ended the session'));
    },
  };
}
