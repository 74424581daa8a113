// Bridge over the headless host's JSON-RPC 2.0 WebSocket at /bridge?token=TOKEN.
import { formatRoute, parseHash } from '../router/route';
import type { BridgeApi, EventKey, EventMap } from '../../../shared/contract';
import { EVENT_KEYS, INVOKE_KEYS } from '../../../shared/contract-schemas';
import { AppError, isAppErrorData } from '../../../shared/errors';
import { STALE_LINK_MESSAGE, TOKEN_CHECK_HEADER, TOKEN_CHECK_PATH } from '../../../shared/headless-link';
import type { Bridge } from './types';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: AppError) => void;
}

/** Reads the launch token from the URL fragment (never sent to the server in HTTP requests). */
export function readToken(): string | null {
  // "#token=T" (the URL headless mode prints) or a deep link carrying it: "#/history/<id>?token=T".
  let fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  let keep = '';
  if (!fromHash) {
    const route = parseHash(window.location.hash);
    fromHash = route.query['token'] ?? null;
    if (fromHash) {
      delete route.query['token'];
      keep = formatRoute(route);
    }
  }
  if (fromHash) {
    sessionStorage.setItem('switchboard.token', fromHash);
    history.replaceState(null, '', window.location.pathname + window.location.search + keep);
    // The location changed without a hashchange event: let the router read it.
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    return fromHash;
  }
  return sessionStorage.getItem('switchboard.token');
}

/** Opens the WebSocket bridge; resolves once connected. */
export function createWsBridge(token: string): Promise<Bridge> {
  const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/bridge?token=${encodeURIComponent(token)}`;
  const socket = new WebSocket(url);
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventKey, Set<(payload: unknown) => void>>();
  const disconnects: (() => void)[] = [];
  let nextId = 1;

  socket.addEventListener('message', (ev) => {
    let msg: { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string; data?: unknown } };
    try {
      msg = JSON.parse(String(ev.data));
    } catch {
      return;
    }
    if (typeof msg.id === 'number') {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.error) {
        p.reject(isAppErrorData(msg.error.data) ? AppError.fromData(msg.error.data) : new AppError('internal', msg.error.message));
      } else p.resolve(msg.result);
    } else if (typeof msg.method === 'string' && (EVENT_KEYS as string[]).includes(msg.method)) {
      for (const l of listeners.get(msg.method as EventKey) ?? []) l(msg.params);
    }
  });
  socket.addEventListener('close', () => {
    for (const p of pending.values()) p.reject(new AppError('connection_closed', 'The connection to Switchboard was lost'));
    pending.clear();
    for (const d of disconnects) d();
  });

  const call = (method: string, params: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (socket.readyState !== WebSocket.OPEN) {
        reject(new AppError('connection_closed', 'Not connected to Switchboard'));
        return;
      }
      const id = nextId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });

  const api = Object.fromEntries(INVOKE_KEYS.map((key) => [key, (args: unknown) => call(key, args ?? {})])) as unknown as BridgeApi;
  const bridge: Bridge = {
    api,
    kind: 'websocket',
    on: <E extends EventKey>(event: E, listener: (payload: EventMap[E]) => void) => {
      const set = listeners.get(event) ?? new Set();
      const wrapped = (payload: unknown): void => listener(payload as EventMap[E]);
      set.add(wrapped);
      listeners.set(event, set);
      return () => set.delete(wrapped);
    },
    onDisconnect: (l) => disconnects.push(l),
  };
  // The shell refuses a gateway ask, an elicitation or a sampling request at once when no page is visible, so
  // each page says when it is shown or hidden.
  const sendVisibility = (): void => {
    if (socket.readyState !== WebSocket.OPEN) return;
    socket.send(
      JSON.stringify({ jsonrpc: '2.0', method: 'bridge/visibility', params: { visible: document.visibilityState === 'visible' } }),
    );
  };
  document.addEventListener('visibilitychange', sendVisibility);
  socket.addEventListener('close', () => document.removeEventListener('visibilitychange', sendVisibility));
  return new Promise((resolve, reject) => {
    socket.addEventListener(
      'open',
      () => {
        sendVisibility();
        resolve(bridge);
      },
      { once: true },
    );
    socket.addEventListener('error', () => void whyRefused(token).then(reject), { once: true });
  });
}

/** Why the WebSocket was refused: a token from an earlier run (the host says so), or the host could not be reached. */
async function whyRefused(token: string): Promise<AppError> {
  try {
    const res = await fetch(TOKEN_CHECK_PATH, { method: 'POST', headers: { [TOKEN_CHECK_HEADER]: token }, cache: 'no-store' });
    if (res.status === 401) {
      // The stale token must not come back on the next reload either.
      sessionStorage.removeItem('switchboard.token');
      return new AppError('stale_link', STALE_LINK_MESSAGE);
    }
  } catch {
    // Not reachable at all: the generic message below.
  }
  return new AppError('connection_closed', 'Could not connect to Switchboard: is `npm run headless` still running?');
}
