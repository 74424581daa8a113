import { formatRoute, parseHash, type Route } from '../router/route';
import type { SliceCreator, Store } from './types';

/** Which dialog is open. */
export type DialogState =
  | { kind: 'none' }
  | { kind: 'addServer' }
  | { kind: 'editServer'; id: string }
  | { kind: 'removeServer'; id: string }
  | { kind: 'import' }
  | { kind: 'export' };

/** Tabs of the server page (the second path segment of #/servers/<id>/<tab>). */
export type ServerTab = 'overview' | 'tools' | 'resources' | 'prompts' | 'auth' | (string & {});

/** UI-only state: the current location (deep link) and the open dialog. */
export interface UiSlice {
  /** The current location; the URL fragment is its source of truth. */
  route: Route;
  /** Goes to a location (a new history entry unless `replace`). */
  navigate: (to: Route, opts?: { replace?: boolean }) => void;
  /** Applies a location read from the URL (hashchange, start-up). */
  applyRoute: (route: Route) => void;
  dialog: DialogState;
  openDialog: (dialog: DialogState) => void;
  closeDialog: () => void;
  /** The latest message for the app's polite live region (connection changes, finished calls). */
  announcement: string;
  /** Announces a message to assistive technology. */
  announce: (text: string) => void;
}

export const createUiSlice: SliceCreator<UiSlice> = (set) => ({
  route: parseHash(typeof window === 'undefined' ? '' : window.location.hash),
  navigate: (to, opts) => {
    const hash = formatRoute(to);
    if (typeof window !== 'undefined' && window.location.hash !== hash) {
      if (opts?.replace) window.history.replaceState(null, '', hash);
      else window.location.hash = hash;
    }
    set({ route: to });
  },
  applyRoute: (route) => set({ route }),
  dialog: { kind: 'none' },
  openDialog: (dialog) => set({ dialog }),
  closeDialog: () => set({ dialog: { kind: 'none' } }),
  announcement: '',
  announce: (text) => set({ announcement: text }),
});

/** The open dialog. */
export const selectDialog = (s: Store): DialogState => s.dialog;
/** The current location. */
export const selectRoute = (s: Store): Route => s.route;
/** The top-level view id. */
export const selectView = (s: Store): string => s.route.view;
/** The server id in the location, when the servers view shows one. */
export const selectRouteServerId = (s: Store): string | null => (s.route.view === 'servers' ? (s.route.segments[0] ?? null) : null);
/** The server page's tab in the location ('overview' when none). */
export const selectServerTab = (s: Store): ServerTab => (s.route.view === 'servers' ? (s.route.segments[1] ?? 'overview') : 'overview');
