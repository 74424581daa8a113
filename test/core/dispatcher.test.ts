// The dispatcher validates untrusted input before any handler runs, and turns anything a
// handler throws into safe error data (no stack, no message, no secrets) unless it is an AppError.
import { describe, expect, it } from 'vitest';
import { INVOKE_KEYS } from '../../shared/contract-schemas.js';
import { AppError } from '../../shared/errors.js';
import { createDispatcher, toErrorData } from '../../electron/core/dispatcher.js';
import type { Handlers } from '../../electron/core/handlers.js';

/** A handler table whose every entry counts its calls and runs `behaviour`. */
function countingTable(behaviour: (method: string, args: unknown) => unknown = () => undefined) {
  const counter = { calls: [] as { method: string; args: unknown }[] };
  const table: Record<string, (args: unknown) => Promise<unknown>> = {};
  for (const key of INVOKE_KEYS) {
    table[key] = async (args) => {
      counter.calls.push({ method: key, args });
      return behaviour(key, args);
    };
  }
  return { handlers: table as unknown as Handlers, counter };
}

const validStdio = { id: 'ok', name: 'Ok', transport: { type: 'stdio', command: 'node', args: ['x.js'] } };

describe('validation before dispatch', () => {
  const invalid: [string, unknown][] = [
    ['servers.get', { id: '' }],
    ['servers.get', { id: 42 }],
    ['servers.get', {}],
    ['servers.get', { id: 'x', extra: 1 }],
    ['servers.get', 'x'],
    ['servers.get', ['x']],
    ['servers.get', 7],
    ['servers.get', { id: 'x'.repeat(201) }],
    ['servers.list', { unexpected: true }],
    ['app.info', { a: 1 }],
    ['servers.add', {}],
    ['servers.add', { config: { ...validStdio, id: 'Not A Slug' } }],
    ['servers.add', { config: { ...validStdio, transport: { type: 'stdio', command: '' } } }],
    ['servers.add', { config: { ...validStdio, transport: { type: 'stdio', command: 'x', args: 'not-an-array' } } }],
    ['servers.add', { config: { ...validStdio, transport: { type: 'websocket', url: 'ws://127.0.0.1' } } }],
    ['servers.add', { config: { ...validStdio, transport: { type: 'http', url: 'http://example.com/mcp' } } }],
    [
      'servers.add',
      { config: { ...validStdio, transport: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } } } },
    ],
    [
      'servers.add',
      { config: { ...validStdio, transport: { type: 'http', url: 'https://example.com/mcp', headers: { 'X-A': 'a\r\nInjected: 1' } } } },
    ],
    ['servers.add', { config: { ...validStdio, transport: { type: 'stdio', command: 'x', env: { 'BAD-KEY': 'v' } } } }],
    ['servers.add', { config: { ...validStdio, unknownField: true } }],
    ['servers.add', { config: { ...validStdio, timeouts: { connectSecs: -1 } } }],
    ['servers.update', { id: 'ok' }],
    ['servers.import', { text: 5 }],
    ['servers.import', { text: '{}', secrets: { a: { B: 1 } } }],
    ['servers.importPreview', { text: '{}', format: 'zed' }],
    ['servers.export', { format: 'yaml' }],
    ['servers.approve', { id: 'x' }],
  ];

  it.each(invalid)('%s %j is refused as invalid_request and no handler runs', async (method, args) => {
    const { handlers, counter } = countingTable();
    const dispatch = createDispatcher(handlers);
    const env = await dispatch(method, args);
    expect(env.ok).toBe(false);
    expect(!env.ok && env.error.code).toBe('invalid_request');
    expect(!env.ok && env.error.message.length).toBeGreaterThan(0);
    expect(counter.calls).toEqual([]);
  });

  it('an unknown method is refused as unknown_method and no handler runs', async () => {
    const { handlers, counter } = countingTable();
    const dispatch = createDispatcher(handlers);
    for (const method of ['servers.nuke', '__proto__', 'constructor', 'toString', '', 'x'.repeat(10_000)]) {
      const env = await dispatch(method, {});
      expect(!env.ok && env.error.code, method.slice(0, 20)).toBe('unknown_method');
      expect(!env.ok && env.error.message.length).toBeLessThan(200);
    }
    expect(counter.calls).toEqual([]);
  });

  it('a valid call reaches exactly its handler with the parsed (defaulted) arguments', async () => {
    const { handlers, counter } = countingTable((method) => ({ from: method }));
    const dispatch = createDispatcher(handlers);
    const env = await dispatch('servers.add', { config: validStdio });
    expect(env).toEqual({ ok: true, value: { from: 'servers.add' } });
    expect(counter.calls).toHaveLength(1);
    expect(counter.calls[0]!.method).toBe('servers.add');
    const config = (
      counter.calls[0]!.args as {
        config: { enabled: boolean; transport: { env: object; inheritEnv: boolean }; timeouts: { connectSecs: number } };
      }
    ).config;
    expect(config.enabled).toBe(true);
    expect(config.transport.env).toEqual({});
    expect(config.transport.inheritEnv).toBe(false);
    expect(config.timeouts.connectSecs).toBe(45);
  });

  it('missing args (undefined/null) count as {} for argument-free methods', async () => {
    const { handlers, counter } = countingTable(() => []);
    const dispatch = createDispatcher(handlers);
    expect(await dispatch('servers.list', undefined)).toEqual({ ok: true, value: [] });
    expect(await dispatch('servers.list', null)).toEqual({ ok: true, value: [] });
    expect(counter.calls.map((c) => c.method)).toEqual(['servers.list', 'servers.list']);
  });

  it('a handler returning undefined yields null (JSON-safe)', async () => {
    const { handlers } = countingTable(() => undefined);
    const env = await createDispatcher(handlers)('servers.remove', { id: 'x' });
    expect(env).toEqual({ ok: true, value: null });
  });
});

describe('errors as data', () => {
  const SECRET = 'sk-live-CANARY-0001';

  it('a non-AppError exception becomes {code: internal} with no message, stack or secret', async () => {
    const thrown: unknown[] = [
      new Error(`failed reading /home/alice/.ssh/id_rsa with token ${SECRET}`),
      new TypeError(`Cannot read properties of undefined (reading '${SECRET}')`),
      Object.assign(new Error(SECRET), { code: 'not_found', serverId: SECRET }),
      { code: 'not_found', message: SECRET }, // looks like AppErrorData but is not an AppError
      SECRET,
      null,
    ];
    for (const err of thrown) {
      const seen: { method: string; err: unknown }[] = [];
      const { handlers, counter } = countingTable(() => {
        throw err;
      });
      const dispatch = createDispatcher(handlers, (method, e) => seen.push({ method, err: e }));
      const env = await dispatch('servers.get', { id: 'x' });
      expect(counter.calls).toHaveLength(1);
      expect(env.ok).toBe(false);
      if (env.ok) continue;
      expect(env.error).toEqual({ code: 'internal', message: 'An unexpected error occurred in the core' });
      const wire = JSON.stringify(env);
      expect(wire).not.toContain(SECRET);
      expect(wire).not.toContain('id_rsa');
      expect(wire).not.toMatch(/\bat .*\.(ts|js):\d+/);
      expect(Object.keys(env.error).sort()).toEqual(['code', 'message']);
      // The host still learns about it for its own log.
      expect(seen).toEqual([{ method: 'servers.get', err }]);
    }
  });

  it('a rejected promise is handled the same way as a synchronous throw', async () => {
    const table = countingTable();
    const handlers = {
      ...(table.handlers as unknown as Record<string, unknown>),
      'servers.get': () => Promise.reject(new Error(SECRET)),
    } as unknown as Handlers;
    const env = await createDispatcher(handlers)('servers.get', { id: 'x' });
    expect(env).toEqual({ ok: false, error: { code: 'internal', message: 'An unexpected error occurred in the core' } });
  });

  it('an AppError crosses as its own data (code, message, serverId, evidence) without a stack', async () => {
    const seen: unknown[] = [];
    const { handlers } = countingTable(() => {
      throw new AppError('spawn_failed', 'Could not start node', {
        serverId: 'files',
        evidence: { exitCode: 127, phase: 'spawn' },
        cause: new Error(SECRET),
      });
    });
    const env = await createDispatcher(handlers, (_m, e) => seen.push(e))('servers.connect', { id: 'files' });
    expect(env).toEqual({
      ok: false,
      error: { code: 'spawn_failed', message: 'Could not start node', serverId: 'files', evidence: { exitCode: 127, phase: 'spawn' } },
    });
    expect(JSON.stringify(env)).not.toContain(SECRET);
    expect(JSON.stringify(env)).not.toContain('stack');
    expect(seen).toEqual([]); // expected errors are not reported as internal
  });

  it('toErrorData never returns a stack for any input', () => {
    for (const err of [new Error('x'), new AppError('timeout', 't'), 'str', 1, undefined]) {
      const data = toErrorData(err);
      expect(Object.keys(data)).not.toContain('stack');
      expect(typeof data.code).toBe('string');
    }
  });
});

describe('answers that cannot cross a bridge', () => {
  it('a handler answer nested too deep becomes a typed error for that caller, not an exception', async () => {
    let value: unknown = 1;
    for (let i = 0; i < 5000; i++) value = { a: value };
    const { handlers } = countingTable((method) => (method === 'calls.result' ? value : undefined));
    const errors: string[] = [];
    const dispatch = createDispatcher(handlers, (method) => errors.push(method));
    const env = await dispatch('calls.result', { callId: 'x' });
    expect(env).toEqual({
      ok: false,
      error: { code: 'internal', message: expect.stringMatching(/answer to calls\.result could not be sent/) },
    });
    expect(errors).toEqual(['calls.result']);
    // The next call is unaffected.
    expect(await dispatch('servers.list', {})).toEqual({ ok: true, value: null });
  });
});
