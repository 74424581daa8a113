// Quitting waits for the core: the first quit request is held (preventDefault), the core's shutdown runs (servers
// ended, pending writes flushed), bounded, and then the app quits for real. Further quit requests while it runs are
// absorbed; a shutdown that takes too long is logged and the app quits anyway.

/** The part of Electron's app this module uses. */
export interface QuitApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
}

/** The Electron shell waits this long for the core before quitting regardless. */
export const QUIT_TIMEOUT_MS = 5000;

/** Quit handling options. */
export interface QuitOptions {
  /** Longest wait for the shutdown (default 5 s). */
  timeoutMs?: number;
  /** Where progress and a slow shutdown are reported. */
  log?: (level: 'info' | 'warn', message: string) => void;
}

/** The installed handler's state. */
export interface QuitHandler {
  /** 'running' while the core shuts down, 'done' once the app may quit. */
  readonly state: 'idle' | 'running' | 'done';
  /** Resolves when the shutdown finished or timed out. */
  readonly finished: Promise<void>;
}

/** Installs the before-quit handler that runs `shutdown` first. */
export function installQuitHandler(app: QuitApp, shutdown: () => Promise<unknown>, opts: QuitOptions = {}): QuitHandler {
  const timeoutMs = opts.timeoutMs ?? QUIT_TIMEOUT_MS;
  let state: QuitHandler['state'] = 'idle';
  let resolveFinished: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (resolveFinished = resolve));
  app.on('before-quit', (event) => {
    if (state === 'done') return;
    event.preventDefault();
    if (state === 'running') return;
    state = 'running';
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timed out'>((resolve) => {
      timer = setTimeout(() => resolve('timed out'), timeoutMs);
    });
    void Promise.race([
      shutdown().then(
        () => 'done' as const,
        () => 'failed' as const,
      ),
      timedOut,
    ]).then((outcome) => {
      clearTimeout(timer);
      // A finished shutdown has closed the log with its own last line (and its time); only trouble is reported here.
      if (outcome === 'timed out') opts.log?.('warn', `shutdown did not finish within ${timeoutMs / 1000} s; quitting anyway`);
      else if (outcome === 'failed') opts.log?.('warn', `shutdown failed after ${Date.now() - started} ms; quitting anyway`);
      state = 'done';
      resolveFinished();
      app.quit();
    });
  });
  return {
    get state() {
      return state;
    },
    finished,
  };
}
