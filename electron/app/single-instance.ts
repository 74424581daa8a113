// One app instance: a second launch focuses the existing window, from the first moment (the handler is registered
// right after the lock is taken, before the window exists; a launch that arrives before the window is shown brings
// it forward as soon as it is). Once the app has shown a window, a later launch brings it forward whatever its
// state (hidden with Cmd+H, minimized), and opens a new one when the person closed it (macOS keeps running).

/** The part of Electron's app this module uses. */
export interface InstanceApp {
  requestSingleInstanceLock(): boolean;
  on(event: 'second-instance', listener: () => void): unknown;
}

/** The part of a BrowserWindow this module uses. */
export interface FocusableWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  isVisible(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

/** The single-instance claim. */
export interface SingleInstance {
  /** Whether this process is the one instance. */
  readonly acquired: boolean;
  /** Call when the window is ready to show: a launch that came earlier focuses it now. */
  windowReady(win: FocusableWindow): void;
}

/** Brings a window to the front. */
export function bringForward(win: FocusableWindow): void {
  if (win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  if (!win.isVisible()) win.show();
  win.focus();
}

/**
 * Takes the lock and registers the second-instance handler at once. `reopen` opens the window again when the app
 * runs without one (the same as the dock's activate).
 */
export function claimSingleInstance(
  app: InstanceApp,
  window: () => FocusableWindow | undefined,
  reopen: () => void = () => undefined,
): SingleInstance {
  const acquired = app.requestSingleInstanceLock();
  let pending = false;
  let shown = false;
  if (acquired) {
    app.on('second-instance', () => {
      const win = window();
      if (win && !win.isDestroyed() && (shown || win.isVisible())) bringForward(win);
      else if (!shown) pending = true;
      else reopen();
    });
  }
  return {
    acquired,
    windowReady: (win) => {
      shown = true;
      if (!pending) return;
      pending = false;
      bringForward(win);
    },
  };
}
