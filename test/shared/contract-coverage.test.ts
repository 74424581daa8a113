// Every side of the boundary covers exactly the contract: main's ipcMain registrations,
// the preload's exposed API, the headless bridge and the core's handler table.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { WebSocket } from 'ws';
import type { invokeArgSchemas } from '../../shared/contract-schemas.js';
import { EVENT_KEYS, INVOKE_KEYS, isInvokeKey } from '../../shared/contract-schemas.js';
import type { EventKey, IpcEnvelope, InvokeKey } from '../../shared/contract.js';
import type { Dispatch } from '../../electron/core/dispatcher.js';
import { createHandlers } from '../../electron/core/handlers.js';
import { startBridgeServer, type BridgeServer } from '../../electron/headless/bridge-server.js';
import { buildPreloadApi, type PreloadPorts } from '../../electron/ipc/preload-api.js';
import { registerIpc, type InvokeEventLike, type IpcMainLike } from '../../electron/ipc/register-ipc.js';
import { cleanup, makeHost, tempDir, type HostHarness } from './support/harness.js';

const sorted = (keys: readonly string[]) => [...keys].sort();

describe('runtime key lists', () => {
  it('INVOKE_KEYS and EVENT_KEYS are non-empty, unique and in domain.verb form', () => {
    for (const keys of [INVOKE_KEYS, EVENT_KEYS] as readonly string[][]) {
      expect(keys.length).toBeGreaterThan(0);
      expect(new Set(keys).size).toBe(keys.length);
      for (const k of keys) expect(k).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
    }
    expect(INVOKE_KEYS).toEqual(
      expect.arrayContaining([
        'app.info',
        'servers.list',
        'servers.get',
        'servers.add',
        'servers.update',
        'servers.remove',
        'servers.import',
        'servers.export',
      ]),
    );
    expect(EVENT_KEYS).toContain('servers.changed');
  });

  it('match the contract types exactly (checked by tsc)', () => {
    expectTypeOf<keyof typeof invokeArgSchemas>().toEqualTypeOf<InvokeKey>();
    expectTypeOf<(typeof EVENT_KEYS)[number]>().toEqualTypeOf<EventKey>();
  });

  it('isInvokeKey knows every key and nothing inherited from Object.prototype', () => {
    for (const k of INVOKE_KEYS) expect(isInvokeKey(k)).toBe(true);
    for (const k of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'servers', 'servers.nuke', ''])
      expect(isInvokeKey(k)).toBe(false);
  });
});

describe('Electron main: registerIpc', () => {
  function setup(trusted: (frame: unknown) => boolean) {
    const handles = new Map<string, (event: InvokeEventLike, args: unknown) => Promise<unknown>>();
    const channels: string[] = [];
    const ipcMain: IpcMainLike = {
      handle(channel, listener) {
        channels.push(channel);
        handles.set(channel, listener);
      },
    };
    const calls: { method: string; args: unknown }[] = [];
    const dispatch: Dispatch = async (method, args) => {
      calls.push({ method, args });
      return { ok: true, value: `handled ${method}` };
    };
    const returned = registerIpc(ipcMain, dispatch, trusted);
    return { handles, channels, calls, returned };
  }

  it('registers exactly one handle per contract key', () => {
    const { channels, returned } = setup(() => true);
    expect(channels.length).toBe(INVOKE_KEYS.length);
    expect(new Set(channels).size).toBe(channels.length);
    expect(sorted(channels)).toEqual(sorted(INVOKE_KEYS));
    expect(sorted(returned)).toEqual(sorted(INVOKE_KEYS));
  });

  it('each channel dispatches its own key with the given args from the trusted frame', async () => {
    const top = { id: 'top-frame' };
    const { handles, calls } = setup((frame) => frame === top);
    for (const key of INVOKE_KEYS) {
      const result = (await handles.get(key)!({ senderFrame: top }, { probe: key })) as IpcEnvelope<unknown>;
      expect(result).toEqual({ ok: true, value: `handled ${key}` });
    }
    expect(calls).toEqual(INVOKE_KEYS.map((k) => ({ method: k, args: { probe: k } })));
  });

  it('refuses calls from any other frame without dispatching', async () => {
    const top = { id: 'top-frame' };
    const { handles, calls } = setup((frame) => frame === top);
    for (const key of INVOKE_KEYS) {
      for (const frame of [{ id: 'iframe' }, null, undefined]) {
        const result = (await handles.get(key)!({ senderFrame: frame }, {})) as IpcEnvelope<unknown>;
        expect(result.ok).toBe(false);
        expect(!result.ok && result.error.code).toBe('invalid_request');
      }
    }
    expect(calls).toEqual([]);
  });
});

describe('Electron preload: buildPreloadApi', () => {
  function setup() {
    const invoked: { channel: string; args: unknown }[] = [];
    const subscribed: string[] = [];
    const listeners = new Map<string, (payload: unknown) => void>();
    const ports: PreloadPorts = {
      async invoke(channel, args) {
        invoked.push({ channel, args });
        return { ok: true, value: channel };
      },
      on(channel, listener) {
        subscribed.push(channel);
        listeners.set(channel, listener);
        return () => listeners.delete(channel);
      },
    };
    return { api: buildPreloadApi(ports), invoked, subscribed, listeners };
  }

  it('exposes exactly the InvokeMap keys and the EventMap keys, and nothing generic', () => {
    const { api } = setup();
    expect(sorted(Object.keys(api))).toEqual(['events', 'invoke']);
    expect(typeof api.invoke).toBe('object');
    expect(sorted(Object.keys(api.invoke))).toEqual(sorted(INVOKE_KEYS));
    expect(sorted(Object.keys(api.events))).toEqual(sorted(EVENT_KEYS));
    for (const fn of Object.values(api.invoke)) expect(typeof fn).toBe('function');
    for (const fn of Object.values(api.events)) expect(typeof fn).toBe('function');
    // No generic channel-taking entry point anywhere.
    const all = { ...api, ...api.invoke, ...api.events } as Record<string, unknown>;
    for (const name of ['invoke', 'send', 'sendSync', 'on', 'call', 'request']) {
      expect(typeof all[name] === 'function', name).toBe(false);
    }
  });

  it('each method sends on its own channel only', async () => {
    const { api, invoked } = setup();
    for (const key of INVOKE_KEYS) {
      const fn = (api.invoke as unknown as Record<string, (args: unknown) => Promise<unknown>>)[key]!;
      expect(await fn({ k: key })).toEqual({ ok: true, value: key });
    }
    expect(invoked).toEqual(INVOKE_KEYS.map((k) => ({ channel: k, args: { k } })));
  });

  it('each event subscriber listens on its own channel and unsubscribes', () => {
    const { api, subscribed, listeners } = setup();
    for (const key of EVENT_KEYS) {
      const got: unknown[] = [];
      const sub = (api.events as unknown as Record<string, (l: (p: unknown) => void) => () => void>)[key]!;
      const off = sub((p) => got.push(p));
      listeners.get(key)!({ event: key });
      expect(got).toEqual([{ event: key }]);
      off();
      expect(listeners.has(key)).toBe(false);
    }
    expect(subscribed).toEqual(EVENT_KEYS);
  });
});

describe('core: createHandlers', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => cleanup(dir));

  it('has exactly the contract keys, each a function', () => {
    const handlers = createHandlers(makeHost(dir).host);
    expect(sorted(Object.keys(handlers))).toEqual(sorted(INVOKE_KEYS));
    for (const fn of Object.values(handlers)) expect(typeof fn).toBe('function');
  });
});

describe('headless bridge', () => {
  let dir: string;
  let h: HostHarness;
  let server: BridgeServer;
  let ws: WebSocket;
  const handled: string[] = [];

  beforeEach(async () => {
    dir = tempDir();
    mkdirSync(join(dir, 'static'));
    h = makeHost(join(dir, 'data'));
    handled.length = 0;
    const token = randomBytes(32).toString('base64url');
    const dispatch: Dispatch = (method, args) => {
      if (isInvokeKey(method)) handled.push(method);
      return h.dispatch(method, args);
    };
    server = await startBridgeServer({ dispatch, events: h.host.events, staticDir: join(dir, 'static'), token, port: 0 });
    ws = new WebSocket(`ws://127.0.0.1:${server.port}/bridge?token=${token}`, { origin: server.origin });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
  });
  afterEach(async () => {
    ws.terminate();
    await server.close();
    cleanup(dir);
  });

  let nextId = 1;
  function request(method: string, params: unknown): Promise<{ result?: unknown; error?: { code: number; data?: { code: string } } }> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer`)), 5000);
      const onMessage = (data: Buffer): void => {
        const msg = JSON.parse(data.toString()) as { id?: number };
        if (msg.id !== id) return;
        clearTimeout(timer);
        ws.off('message', onMessage);
        resolve(msg as never);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  it('answers every contract key (none is an unknown method)', async () => {
    for (const key of INVOKE_KEYS) {
      // A stray property makes every strict argument schema refuse, so no handler side effects run.
      const reply = await request(key, { __coverageProbe: true });
      expect(reply.error?.code, key).not.toBe(-32601);
      expect(reply.result !== undefined || reply.error !== undefined, key).toBe(true);
    }
    expect(handled).toEqual(INVOKE_KEYS);
  });

  it('refuses a key that is not in the contract', async () => {
    for (const key of ['servers.nuke', 'app.exec', 'constructor', '__proto__', 'servers.list ']) {
      const reply = await request(key, {});
      expect(reply.error?.code, key).toBe(-32601);
      expect(reply.error?.data?.code, key).toBe('unknown_method');
    }
  });
});
