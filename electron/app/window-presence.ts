// Tells the core whether the person can see the desktop window, so a gateway ask, an elicitation or a sampling
// request is refused at once when no window is shown instead of waiting for its deadline. A minimized window
// counts as shown: it is one click away in the taskbar or dock, and the person is likely working in the very
// app whose call is waiting.
import type { ViewerState } from '../core/presence.js';

/** The parts of a BrowserWindow this needs. */
export interface PresenceWindow {
  readonly id: number;
  isVisible(): boolean;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  on(event: 'show' | 'hide' | 'minimize' | 'restore' | 'ready-to-show' | 'closed', listener: () => void): unknown;
}

/** Where the state goes (the core's Presence). */
export interface PresenceSink {
  set(viewer: string, state: ViewerState | undefined): void;
}

/** Reports one window's state now and on every change, until it closes. */
export function reportWindowPresence(win: PresenceWindow, presence: PresenceSink): void {
  const viewer = `window-${win.id}`;
  const update = (): void => {
    if (win.isDestroyed()) presence.set(viewer, undefined);
    else presence.set(viewer, win.isVisible() || win.isMinimized() ? 'visible' : 'hidden');
  };
  for (const event of ['show', 'hide', 'minimize', 'restore', 'ready-to-show'] as const) win.on(event, update);
  win.on('closed', () => presence.set(viewer, undefined));
  update();
}
