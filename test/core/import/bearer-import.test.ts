// An imported `Authorization: Bearer …` header, and the token typed in the Add dialog, become the server's bearer
// token in the credential store (the account the auth contract reads), stored before the server's first connect;
// never a header in the settings file. Other Authorization schemes are refused with a reason.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview, ImportResult, ServerDetail } from '../../../shared/contract.js';
import type { AppErrorData } from '../../../shared/errors.js';
import { accounts } from '../../../electron/core/auth/credentials.js';
import { readAuthorizationValue } from '../../../electron/core/import/bearer.js';
import { call, cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';

let dir: string;
let h: HostHarness;
beforeEach(() => {
  dir = tempDir();
  h = makeHost(dir);
});
afterEach(() => cleanup(dir));

const CANARY = 'sb_CANARY_bearer_42.x-y~z+/=';
const settingsText = () => readFileSync(join(dir, 'config.json'), 'utf8');

async function failure(method: string, args: unknown): Promise<AppErrorData> {
  const env = await h.dispatch(method, args);
  if (env.ok) throw new Error(`${method} unexpectedly succeeded`);
  return env.error;
}

describe('reading an imported Authorization header', () => {
  it('takes Bearer tokens (any case), VS Code inputs, and refuses other schemes with a reason', () => {
    expect(readAuthorizationValue(`Bearer ${CANARY}`)).toEqual({ kind: 'bearer', token: CANARY });
    expect(readAuthorizationValue(`  bearer   ${CANARY} `)).toEqual({ kind: 'bearer', token: CANARY });
    expect(readAuthorizationValue('Bearer ${input:tok}')).toEqual({ kind: 'prompted', inputId: 'tok' });
    expect(readAuthorizationValue('${input:tok}')).toEqual({ kind: 'prompted', inputId: 'tok' });
    const basic = readAuthorizationValue('Basic dXNlcjpwYXNz');
    expect(basic.kind).toBe('unsupported');
    expect(basic.kind === 'unsupported' && basic.reason).toMatch(/Basic scheme; only Bearer tokens/);
    expect(readAuthorizationValue('Bearer').kind).toBe('unsupported');
    expect(readAuthorizationValue('Bearer two words').kind).toBe('unsupported');
  });
});

describe('import', () => {
  const text = JSON.stringify({
    mcpServers: {
      api: { url: 'https://api.example.com/mcp', headers: { Authorization: `Bearer ${CANARY}`, 'X-Team': 'blue' } },
      basic: { url: 'https://api.example.com/mcp', headers: { authorization: 'Basic dXNlcjpwYXNz' } },
    },
  });

  it('previews the bearer entry as valid (without the token) and refuses another scheme', async () => {
    const preview = await call<ImportPreview>(h.dispatch, 'servers.importPreview', { text });
    const [api, basic] = preview.entries;
    expect(api).toMatchObject({ key: 'api', status: 'valid', bearerToken: true, secretPrompts: [] });
    expect(basic).toMatchObject({ key: 'basic', status: 'invalid' });
    expect(basic?.reasons.join(' ')).toMatch(/only Bearer tokens can be imported/);
    expect(JSON.stringify(preview)).not.toContain(CANARY);
  });

  it('stores the token in the credential store and keeps the other headers; the settings file never holds it', async () => {
    const result = await call<ImportResult>(h.dispatch, 'servers.import', { text });
    expect(result.added).toEqual(['api']);
    expect(result.skipped.map((s) => s.key)).toEqual(['basic']);
    expect(await h.credentials.get(accounts.bearer('api'))).toBe(CANARY);
    const detail = await call<ServerDetail>(h.dispatch, 'servers.get', { id: 'api' });
    expect(detail.config.transport).toMatchObject({ type: 'http', headers: { 'X-Team': 'blue' } });
    expect(JSON.stringify(detail)).not.toContain(CANARY);
    expect(settingsText()).not.toContain(CANARY);
    expect(settingsText()).not.toMatch(/authorization/i);
  });

  it('asks for a prompted VS Code Authorization input and stores its value as the token', async () => {
    const vscode = JSON.stringify({
      inputs: [{ type: 'promptString', id: 'tok', description: 'API token', password: true }],
      servers: { remote: { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${input:tok}' } } },
    });
    const preview = await call<ImportPreview>(h.dispatch, 'servers.importPreview', { text: vscode });
    expect(preview.entries[0]).toMatchObject({
      status: 'valid',
      bearerToken: true,
      secretPrompts: [{ envKey: 'Authorization', inputId: 'tok', description: 'API token' }],
    });
    const missing = await call<ImportResult>(h.dispatch, 'servers.import', { text: vscode });
    expect(missing.added).toEqual([]);
    expect(missing.skipped[0]?.reason).toMatch(/Missing secret value for Authorization/);
    // The person may paste the token with or without its scheme.
    const done = await call<ImportResult>(h.dispatch, 'servers.import', {
      text: vscode,
      secrets: { remote: { Authorization: `Bearer ${CANARY}` } },
    });
    expect(done.added).toEqual(['remote']);
    expect(await h.credentials.get(accounts.bearer('remote'))).toBe(CANARY);
    expect(settingsText()).not.toContain(CANARY);
  });
});

describe('servers.add with a bearer token', () => {
  const http = (id: string) => ({ id, name: id, transport: { type: 'http', url: 'https://api.example.com/mcp' } });

  it('stores the token before the server exists in the list, and never in the settings file', async () => {
    const detail = await call<ServerDetail>(h.dispatch, 'servers.add', { config: http('api'), bearerToken: CANARY });
    expect(detail.id).toBe('api');
    expect(await h.credentials.get(accounts.bearer('api'))).toBe(CANARY);
    expect(settingsText()).not.toContain(CANARY);
    expect(JSON.stringify(detail)).not.toContain(CANARY);
  });

  it("refuses an id that exists without touching that server's token", async () => {
    await call(h.dispatch, 'servers.add', { config: http('api'), bearerToken: 'first-token' });
    const err = await failure('servers.add', { config: http('api'), bearerToken: 'second-token' });
    expect(err.code).toBe('id_conflict');
    expect(await h.credentials.get(accounts.bearer('api'))).toBe('first-token');
  });

  it('refuses a token for a stdio server, a token with a line break, and removes the token when the add fails', async () => {
    const stdio = { id: 'local', name: 'local', transport: { type: 'stdio', command: 'node' } };
    expect((await failure('servers.add', { config: stdio, bearerToken: CANARY })).code).toBe('config_invalid');
    expect((await failure('servers.add', { config: http('x'), bearerToken: 'abc\r\nX-Evil: 1' })).code).toBe('config_invalid');
    expect(await h.credentials.get(accounts.bearer('x'))).toBeNull();
    expect(await h.credentials.get(accounts.bearer('local'))).toBeNull();
  });
});

describe('app.openLink', () => {
  it('opens http(s) links through the opener and refuses other schemes with a typed error', async () => {
    await call(h.dispatch, 'app.openLink', { url: 'https://example.com/docs' });
    const opened = (h.host.interaction.urlOpener as unknown as { opened: string[] }).opened;
    expect(opened).toEqual(['https://example.com/docs']);
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
      'http://example.com/',
      'https://user:pw@example.com/',
      'https://example.com/\u202e',
    ]) {
      expect((await failure('app.openLink', { url })).code).toBe('url_refused');
    }
    expect(opened).toEqual(['https://example.com/docs']);
  });
});
