// The built preload itself, run without a window: bundled the way the app ships it (CommonJS, electron external) and
// executed in a fresh VM context whose `require('electron')` records what it does. It exposes exactly one global,
// `switchboard`, holding exactly the contract's methods and events; each method invokes its own channel; each
// subscription listens on its own channel, hands the listener the payload only (never the IPC event) and unsubscribes.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_KEYS, INVOKE_KEYS } from '../../shared/contract-schemas.js';
import { contractKeysOnly } from '../../scripts/contract-keys-plugin.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sorted = (keys: readonly string[]): string[] => [...keys].sort();

interface Exposed {
  invoke: Record<string, (args: unknown) => Promise<unknown>>;
  events: Record<string, (listener: (payload: unknown) => void) => () => void>;
}

let bundled: string;
let exposed: Map<string, unknown>;
let invoked: [string, unknown][];
let listeners: Map<string, Set<(event: unknown, payload: unknown) => void>>;
let required: string[];

beforeAll(async () => {
  const out = await build({
    entryPoints: [`${root}electron/preload.ts`],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['electron'],
    plugins: [contractKeysOnly],
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.text;
  bundled = code;
  exposed = new Map();
  invoked = [];
  listeners = new Map();
  required = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (channel: string, args: unknown) => {
        invoked.push([channel, args]);
        return { ok: true, value: channel };
      },
      on: (channel: string, listener: (event: unknown, payload: unknown) => void) => {
        const set = listeners.get(channel) ?? new Set();
        set.add(listener);
        listeners.set(channel, set);
      },
      removeListener: (channel: string, listener: (event: unknown, payload: unknown) => void) => listeners.get(channel)?.delete(listener),
    },
  };
  const module = { exports: {} };
  runInNewContext(code, {
    module,
    exports: module.exports,
    require: (name: string) => {
      required.push(name);
      if (name === 'electron') return electron;
      throw new Error(`the sandboxed preload may not require ${name}`);
    },
  });
});

describe('the built preload', () => {
  it('requires only electron and exposes one global, switchboard, with exactly the contract', () => {
    expect([...new Set(required)]).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['switchboard']);
    const api = exposed.get('switchboard') as Exposed;
    expect(sorted(Object.keys(api))).toEqual(['events', 'invoke']);
    expect(sorted(Object.keys(api.invoke))).toEqual(sorted(INVOKE_KEYS));
    expect(sorted(Object.keys(api.events))).toEqual(sorted(EVENT_KEYS));
  });

  it('carries the key lists only, not the validators they come from', () => {
    expect(bundled).not.toMatch(/node_modules[\\/]zod/);
  });

  it('invokes each method on its own channel', async () => {
    const api = exposed.get('switchboard') as Exposed;
    for (const key of INVOKE_KEYS) expect(await api.invoke[key]!({ k: key })).toEqual({ ok: true, value: key });
    expect(invoked).toEqual(INVOKE_KEYS.map((k) => [k, { k }]));
  });

  it('subscribes each event on its own channel, passes the payload only, and unsubscribes', () => {
    const api = exposed.get('switchboard') as Exposed;
    for (const key of EVENT_KEYS) {
      const got: unknown[] = [];
      const off = api.events[key]!((payload) => got.push(payload));
      const [listener] = [...(listeners.get(key) ?? [])];
      listener!({ sender: 'ipc event with internals' }, { event: key });
      expect(got).toEqual([{ event: key }]);
      off();
      expect(listeners.get(key)?.size).toBe(0);
    }
  });
});
