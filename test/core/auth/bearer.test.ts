// Static bearer tokens: kept in the credential store only, sent as the Authorization header, a refused one puts
// the server in needs-auth without opening anything.
import { afterEach, describe, expect, it } from 'vitest';
import { accounts, AuthCredentials } from '../../../electron/core/auth/credentials.js';
import { createDispatcher } from '../../../electron/core/dispatcher.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { startWorld, type World } from '../../fixtures/auth/oauth-world.js';
import { addHttpServer, makeAuthHost, type AuthHarness } from './helpers.js';
import { dataFileTexts } from '../../shared/support/data-files.js';

let world: World | undefined;
const harnesses: AuthHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.cleanup();
  await world?.close();
  world = undefined;
});

describe('static bearer token', () => {
  it('is sent to the server, kept out of the settings file and status; a refused one means needs-auth', async () => {
    world = await startWorld({ tokenPrefix: 'CANARY_' });
    // Get a real token from the authorization server through one sign-in.
    const signer = makeAuthHost();
    harnesses.push(signer);
    await addHttpServer(signer.host, 'p', world.mcpUrl);
    signer.opener.onOpen = async (url) => {
      await fetch(await world!.consent(url));
    };
    await signer.auth.begin('p');
    await signer.auth.settled('p');
    const token = (await new AuthCredentials(signer.credentials).grant('p', world.mcpUrl))!.tokens.access_token;
    expect(token.startsWith('CANARY_')).toBe(true);

    const h = makeAuthHost();
    harnesses.push(h);
    await addHttpServer(h.host, 'b', world.mcpUrl);
    const status = await h.auth.setBearer('b', token);
    expect(status).toMatchObject({ kind: 'bearer', state: 'signed-in', bearerSet: true });
    expect(JSON.stringify(status)).not.toContain(token);
    expect(await h.credentials.get(accounts.bearer('b'))).toBe(token);
    expect((await h.sessions.connect('b')).state).toBe('connected');
    expect(world.bearerSeen.at(-1)).toBe(`Bearer ${token}`);
    for (const text of dataFileTexts(h.dir)) expect(text).not.toContain(token);
    expect(JSON.stringify(h.events)).not.toContain(token);
    expect(JSON.stringify(await h.host.get('b'))).not.toContain(token);

    // Sign-in is refused while a bearer token is configured; a wrong token means needs-auth, nothing opened.
    await expect(h.auth.begin('b')).rejects.toMatchObject({ code: 'invalid_request' });
    await h.auth.setBearer('b', 'CANARY_wrong');
    const after = await h.sessions.connect('b');
    expect(after.state).toBe('needs-auth');
    expect((await h.auth.status('b')).reason).toMatch(/bearer token/);
    expect(h.opener.opened).toEqual([]);
    await h.auth.setBearer('b', null);
    expect(await h.credentials.get(accounts.bearer('b'))).toBeNull();
  });
});

describe('removing a server', () => {
  it('deletes its sign-in only when the user asks, through the servers.remove contract call', async () => {
    const h = makeAuthHost();
    harnesses.push(h);
    const dispatch = createDispatcher(createHandlers(h.host));
    await addHttpServer(h.host, 'keep', 'http://127.0.0.1:9/mcp');
    await h.auth.setBearer('keep', 'CANARY_keep');
    expect(await dispatch('servers.remove', { id: 'keep' })).toEqual({ ok: true, value: null });
    expect(await h.credentials.get(accounts.bearer('keep'))).toBe('CANARY_keep');

    await addHttpServer(h.host, 'drop', 'http://127.0.0.1:9/mcp');
    await h.auth.setBearer('drop', 'CANARY_drop');
    expect(await dispatch('servers.remove', { id: 'drop', deleteCredentials: true })).toEqual({ ok: true, value: null });
    expect(await h.credentials.get(accounts.bearer('drop'))).toBeNull();
  });
});
