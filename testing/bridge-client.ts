// A typed client of Switchboard's contract for set-up and checks that need no clicking: every contract method as a
// function (`bridge['servers.list']({})` or `bridge.call('servers.list', {})`), rejecting with AppError (string
// `code`), and typed events. The transport is the headless WebSocket bridge (with the launch token and the page's
// Origin) or, in the Electron app, the window's preload API.
import type { Page } from '@playwright/test';
import WebSocket from 'ws';
import type { BridgeApi, EventKey, EventMap, InvokeArgs, InvokeKey, InvokeResult, IpcEnvelope } from '../shared/contract.js';
import { AppError, isAppErrorData } from '../shared/errors.js';

/** Moves contract calls and events; the typed client sits on top. */
export interface BridgeTransport {
  /** Calls one method; resolves with its result or rejects with AppError. */
  call(method: string, params: unknown): Promise<unknown>;
  /** Receives every event while connected. */
  listen(listener: (event: string, payload: unknown) => void): void;
  /** Closes the connection (a later call opens a new one). */
  close(): Promise<void>;
}

/** Extra methods of the typed client. */
export interface BridgeExtras {
  /** Calls a contract method by name. */
  call<K extends InvokeKey>(method: K, args: InvokeArgs<K>): Promise<InvokeResult<K>>;
  /** Listens to one event; returns the function that stops listening. */
  on<E extends EventKey>(event: E, listener: (payload: EventMap[E]) => void): () => void;
  /**
   * The next `event` (matching `predicate`) that arrives after this call: start waiting before the action that
   * causes it. Rejects after `timeoutMs` (default 30 s) naming the event.
   */
  waitFor<E extends EventKey>(event: E, predicate?: (payload: EventMap[E]) => boolean, opts?: { timeoutMs?: number }): Promise<EventMap[E]>;
  /** Closes the connection. */
  close(): Promise<void>;
}

/** The typed contract client the kit hands to tests. */
export type SwitchboardBridge = BridgeApi & BridgeExtras;

/** Builds the typed client over a transport. */
export function createBridge(transport: BridgeTransport): SwitchboardBridge {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  transport.listen((event, payload) => {
    for (const l of [...(listeners.get(event) ?? [])]) l(payload);
  });
  const on = (event: string, listener: (payload: unknown) => void): (() => void) => {
    const set = listeners.get(event) ?? new Set();
    set.add(listener);
    listeners.set(event, set);
    return () => set.delete(listener);
  };
  const extras: BridgeExtras = {
    call: (method, args) => transport.call(method, args) as Promise<never>,
    on: (event, listener) => on(event, listener as (payload: unknown) => void),
    waitFor: (event, predicate, opts) =>
      new Promise((resolve, reject) => {
        const ms = opts?.timeoutMs ?? 30_000;
        const timer = setTimeout(() => {
          off();
          reject(new Error(`No ${event} event${predicate ? ' matching the condition' : ''} arrived within ${ms / 1000} s`));
        }, ms);
        const off = on(event, (payload) => {
          if (predicate && !predicate(payload as never)) return;
          clearTimeout(timer);
          off();
          resolve(payload as never);
        });
      }),
    close: () => transport.close(),
  };
  return new Proxy(extras as SwitchboardBridge, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop.includes('.')) return (args: unknown) => transport.call(prop, args ?? {});
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

/** Where a headless Switchboard's bridge is (read at connect time, so a restart on a new port is followed). */
export interface WebSocketEndpoint {
  /** Port on 127.0.0.1. */
  port: number;
  /** The launch token. */
  token: string;
}

/** The headless WebSocket bridge as a transport: connects on first use and again after the connection closed. */
export function webSocketTransport(endpoint: () => WebSocketEndpoint): BridgeTransport & { connect(): Promise<void> } {
  let socket: WebSocket | undefined;
  let opening: Promise<WebSocket> | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const eventListeners: ((event: string, payload: unknown) => void)[] = [];

  const open = (): Promise<WebSocket> => {
    if (socket && socket.readyState === WebSocket.OPEN) return Promise.resolve(socket);
    return (opening ??= new Promise<WebSocket>((resolve, reject) => {
      const { port, token } = endpoint();
      const origin = `http://127.0.0.1:${port}`;
      const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge?token=${encodeURIComponent(token)}`, { origin });
      ws.on('message', (data) => {
        let msg: { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: { message?: string; data?: unknown } };
        try {
          msg = JSON.parse(String(data)) as typeof msg;
        } catch {
          return;
        }
        if (typeof msg.id === 'number') {
          const p = pending.get(msg.id);
          pending.delete(msg.id);
          if (!p) return;
          if (msg.error) {
            p.reject(
              isAppErrorData(msg.error.data)
                ? AppError.fromData(msg.error.data)
                : new AppError('internal', msg.error.message ?? 'The bridge answered with an error'),
            );
          } else p.resolve(msg.result);
        } else if (typeof msg.method === 'string') {
          for (const l of eventListeners) l(msg.method, msg.params);
        }
      });
      ws.once('open', () => {
        socket = ws;
        opening = undefined;
        resolve(ws);
      });
      ws.once('error', (err) => {
        opening = undefined;
        reject(new AppError('connection_closed', `Could not reach Switchboard's bridge on port ${port}: ${err.message}`));
      });
      ws.once('close', () => {
        if (socket === ws) socket = undefined;
        for (const p of pending.values()) p.reject(new AppError('connection_closed', 'The connection to Switchboard was lost'));
        pending.clear();
      });
    }));
  };

  return {
    connect: async () => {
      await open();
    },
    call: async (method, params) => {
      const ws = await open();
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      });
    },
    listen: (listener) => {
      eventListeners.push(listener);
    },
    close: async () => {
      const ws = socket ?? (await opening?.catch(() => undefined));
      socket = undefined;
      if (!ws || ws.readyState === WebSocket.CLOSED) return;
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.close();
      });
    },
  };
}

/** The Electron window's preload API (`window.switchboard`) as a transport. */
export function preloadTransport(page: () => Page): BridgeTransport & { connect(): Promise<void> } {
  const eventListeners: ((event: string, payload: unknown) => void)[] = [];
  let subscribed: Promise<void> | undefined;
  const binding = `__switchboardKitEvent${Math.random().toString(36).slice(2)}`;
  const subscribe = (): Promise<void> =>
    (subscribed ??= (async () => {
      const p = page();
      await p.exposeBinding(binding, (_source, event, payload) => {
        for (const l of eventListeners) l(String(event), payload);
      });
      await p.evaluate((name) => {
        const w = globalThis as unknown as {
          switchboard: { events: Record<string, (l: (payload: unknown) => void) => () => void> };
        } & Record<string, (event: string, payload: unknown) => void>;
        for (const [event, sub] of Object.entries(w.switchboard.events)) sub((payload) => w[name]!(event, payload));
      }, binding);
    })());
  return {
    connect: subscribe,
    call: async (method, params) => {
      const envelope = (await page().evaluate(
        ([m, a]) => {
          const w = globalThis as unknown as { switchboard: { invoke: Record<string, ((args: unknown) => Promise<unknown>) | undefined> } };
          const fn = w.switchboard.invoke[m];
          if (!fn) return { ok: false, error: { code: 'unknown_method', message: `Unknown method ${m}` } };
          return fn(a);
        },
        [method, params] as [string, unknown],
      )) as IpcEnvelope<unknown>;
      if (envelope.ok) return envelope.value;
      throw isAppErrorData(envelope.error) ? AppError.fromData(envelope.error) : new AppError('internal', 'The app answered with an error');
    },
    listen: (listener) => {
      eventListeners.push(listener);
    },
    close: async () => {
      subscribed = undefined;
    },
  };
}
