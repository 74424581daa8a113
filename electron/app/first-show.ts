// The first window of a start must become visible or the start has failed: a window created hidden waits for its
// first paint (ready-to-show), which never comes when the renderer process dies or hangs. A renderer that dies
// before the window was shown fails the start (the failed-start dialog, exit 1, lock released); one that has not
// painted after a while is shown anyway, so no launch leaves an invisible process holding the single-instance lock.

/** The part of a BrowserWindow this module uses. */
export interface FirstShowWindow {
  once(event: 'ready-to-show', listener: () => void): unknown;
  show(): void;
  isDestroyed(): boolean;
  webContents: {
    once(event: 'render-process-gone', listener: (event: unknown, details: { reason: string }) => void): unknown;
  };
}

/** How long a window may stay unpainted before it is shown regardless. */
export const FIRST_SHOW_TIMEOUT_MS = 10_000;

/** Options of {@link firstShow}. */
export interface FirstShowOptions {
  timeoutMs?: number;
  /** Called once the window is shown, whichever way. */
  onShown?: () => void;
  /** Told when the window is shown before its first paint. */
  log?: (message: string) => void;
}

/** Shows the window at its first paint or after the timeout; rejects when its renderer dies before that. */
export function firstShow(win: FirstShowWindow, opts: FirstShowOptions = {}): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const shown = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!win.isDestroyed()) win.show();
      opts.onShown?.();
      resolve();
    };
    const timer = setTimeout(() => {
      if (settled) return;
      opts.log?.(`the window had not painted after ${opts.timeoutMs ?? FIRST_SHOW_TIMEOUT_MS} ms; showing it anyway`);
      shown();
    }, opts.timeoutMs ?? FIRST_SHOW_TIMEOUT_MS);
    win.once('ready-to-show', shown);
    win.webContents.once('render-process-gone', (_event, details) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new Error(`The window's renderer process ended before the window could be shown (${details.reason}).`));
    });
  });
}
