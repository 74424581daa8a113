// The add/edit dialog's model: conversion to a server definition (secrets included) and per-field messages
// from the shared schema, the same one the core validates with.
import { describe, expect, it } from 'vitest';
import type { ServerConfigView } from '../../../../shared/contract';
import { emptyModel, modelFromView, modelToInput, validateModel } from '../../../../renderer/src/components/servers/server-form-model';

describe('server form model', () => {
  it('turns one argument per line into argv and keeps empty optional fields out', () => {
    const m = { ...emptyModel(), id: 'files', name: 'Files', command: ' npx ', args: '-y\n@scope/server\n\n/tmp/with space' };
    const input = modelToInput(m);
    expect(input.transport).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@scope/server', '/tmp/with space'],
      env: {},
      inheritEnv: false,
    });
    expect(validateModel(m)).toEqual({});
  });

  it('reports each problem on its own field', () => {
    const m = {
      ...emptyModel(),
      id: 'Bad Id',
      name: '',
      type: 'http' as const,
      url: 'http://example.com/mcp',
      headers: [{ key: 'Authorization', value: 'x', secret: false, isSet: false }],
    };
    const errors = validateModel(m);
    expect(errors['id']).toMatch(/lowercase/);
    expect(errors['name']).toMatch(/required/);
    expect(errors['url']).toMatch(/Plain http is only allowed/);
    expect(errors['headers']).toMatch(/set by Switchboard/);
  });

  it('keeps a stored secret when its field is left empty, replaces it when typed, and sends plain values as text', () => {
    const view: ServerConfigView = {
      id: 'gh',
      name: 'GitHub',
      transport: {
        type: 'stdio',
        command: 'gh-mcp',
        args: [],
        env: { TOKEN: { secret: true, isSet: true }, MODE: 'ro' },
        inheritEnv: false,
      },
      timeouts: { callSecs: 120 },
      tools: { deny: ['delete_repo'] },
    };
    const m = modelFromView(view);
    expect(m.env).toEqual([
      { key: 'TOKEN', value: '', secret: true, isSet: true },
      { key: 'MODE', value: 'ro', secret: false, isSet: false },
    ]);
    const kept = modelToInput(m, view);
    expect(kept.transport).toMatchObject({ env: { TOKEN: { secret: true }, MODE: 'ro' } });
    // Fields the dialog does not edit survive an edit.
    expect(kept.timeouts).toEqual({ callSecs: 120 });
    expect(kept.tools).toEqual({ deny: ['delete_repo'] });

    const typed = modelToInput({ ...m, env: m.env.map((r) => (r.key === 'TOKEN' ? { ...r, value: 'new-secret' } : r)) }, view);
    expect(typed.transport).toMatchObject({ env: { TOKEN: { secret: true, value: 'new-secret' } } });
  });

  it('sends header values marked secret, or under credential-like names, as secrets and keeps a stored one when left empty', () => {
    const view: ServerConfigView = {
      id: 'api',
      name: 'API',
      transport: {
        type: 'http',
        url: 'https://api.example.com/mcp',
        headers: { 'X-Api-Key': { secret: true, isSet: true }, 'X-Tenant': 'acme' },
        allowInsecureHttp: false,
      },
    };
    const m = modelFromView(view);
    expect(m.headers).toEqual([
      { key: 'X-Api-Key', value: '', secret: true, isSet: true },
      { key: 'X-Tenant', value: 'acme', secret: false, isSet: false },
    ]);
    expect(modelToInput(m, view).transport).toMatchObject({ headers: { 'X-Api-Key': { secret: true }, 'X-Tenant': 'acme' } });
    const more = {
      ...m,
      headers: [
        ...m.headers,
        { key: 'X-Session-Token', value: 'tok', secret: false, isSet: false },
        { key: 'X-Region', value: 'eu', secret: true, isSet: false },
      ],
    };
    expect(modelToInput(more, view).transport).toMatchObject({
      headers: { 'X-Session-Token': { secret: true, value: 'tok' }, 'X-Region': { secret: true, value: 'eu' }, 'X-Tenant': 'acme' },
    });
  });
});

describe('server form model: ports fetch refuses', () => {
  it('names the port on the URL field, for http and sse; other ports pass', () => {
    const m = { ...emptyModel(), id: 'web', name: 'Web', type: 'http' as const, url: 'http://127.0.0.1:9/mcp' };
    expect(validateModel(m)['url']).toMatch(/^Port 9 is on the list of ports fetch refuses to connect to/);
    expect(validateModel({ ...m, type: 'sse' as const, url: 'http://localhost:6667/sse' })['url']).toMatch(/^Port 6667 /);
    expect(validateModel({ ...m, url: 'http://127.0.0.1:8080/mcp' })).toEqual({});
  });
});
