// The one app shown picture-in-picture (a small frame that stays on screen whichever view is shown), and the app on
// its way back inline. Kept apart from the main store: it holds live objects (the launch's message log).
import { create } from 'zustand';
import type { AppLaunch } from '../../../shared/domains/apps';
import type { Route } from '../router/route';
import type { MessageLog } from './message-log';

/** A running app as it moves between views. */
export interface MovingApp {
  callId: string;
  launch: AppLaunch;
  log: MessageLog;
  startedAt: number;
  /** Where the app was inline (Return inline goes back there). */
  returnTo: Route;
}

/** The picture-in-picture state. */
export interface PipState {
  /** The app shown picture-in-picture. */
  pip: MovingApp | null;
  /** The app going back inline, until its view adopts it. */
  returning: MovingApp | null;
  /** Shows `app` picture-in-picture (one at a time: a second takes the place of the first, which goes back). */
  enter: (app: MovingApp) => void;
  /** Sends the picture-in-picture app back inline. */
  leave: () => MovingApp | null;
  /** A view took the returning app. */
  adopted: (callId: string) => void;
  /** The picture-in-picture app was closed. */
  closed: () => void;
}

/** The picture-in-picture store. */
export const usePip = create<PipState>((set, get) => ({
  pip: null,
  returning: null,
  enter: (app) => set({ pip: app }),
  leave: () => {
    const app = get().pip;
    set({ pip: null, returning: app });
    return app;
  },
  adopted: (callId) => {
    if (get().returning?.callId === callId) set({ returning: null });
  },
  closed: () => set({ pip: null }),
}));
