// After a DPoP sign-in (authorization code, then tool calls, a refresh and a connection test against servers that
// require DPoP), the private key is in the credential store and nowhere else: not in the data folder (settings,
// logs), the exports, the server logs, the protocol traffic, the calls export, the doctor walk, any contract answer
// the renderer gets, or any event it is sent. The renderer sees the public key's thumbprint only.
import { afterEach, describe, expect, it } from 'vitest';
import { dpopAccount, storedDpopThumbprint } from '../../../electron/core/auth/dpop.js';
import { createDispatcher } from '../../../electron/core/dispatcher.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { startWorld, type World } from '../../fixtures/auth/oauth-world.js';
import { dataFileTexts } from '../../shared/support/data-files.js';
import { addHttpServer, makeAuthHost, until, type AuthHarness } from './helpers.js';

let world: World | undefined;
let h: AuthHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  await world?.close();
  h = undefined;
  world = undefined;
});

describe('the DPoP private key', () => {
  it('never leaves the credential store', async () => {
    world = await startWorld({ accessTokenTtl: 5, dpop: { rotateEvery: 2 } });
    h = makeAuthHost();
    await addHttpServer(h.host, 'p', world.mcpUrl);
    const w = world;
    h.opener.onOpen = async (url) => {
      await fetch(await w.consent(url));
    };
    const dispatch = createDispatcher(createHandlers(h.host));
    const answers: unknown[] = [];
    const ask = async (method: string, args: unknown): Promise<unknown> => {
      const envelope = await dispatch(method as Parameters<typeof dispatch>[0], args);
      answers.push(envelope);
      return envelope;
    };

    await ask('auth.begin', { id: 'p' });
    expect((await h.auth.settled('p')).state, h.logs.join(' | ')).toBe('signed-in');
    await until(() => h!.sessions.status('p').state === 'connected');
    await h.host.catalog.refresh('p');
    const called = (await ask('tools.call', { name: 'mcp__p__whoami', arguments: {} })) as { ok: boolean };
    expect(called.ok).toBe(true);
    expect(world.tokenRequests.refresh_token).toBeGreaterThanOrEqual(1);
    expect(world.rsDpop!.accepted.length).toBeGreaterThan(2);

    const raw = await h.credentials.get(dpopAccount('p'));
    const jwk = JSON.parse(raw!) as { d: string; x: string; y: string };
    expect(jwk.d).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const thumbprint = await storedDpopThumbprint(h.credentials, 'p');

    // What the renderer can ask for, and what else is written or exported.
    const status = (await ask('auth.status', { id: 'p' })) as { ok: true; value: { dpop?: { thumbprint: string } } };
    expect(status.value.dpop).toEqual({ thumbprint });
    await ask('servers.list', {});
    await ask('servers.get', { id: 'p' });
    await ask('servers.status', { id: 'p' });
    await ask('servers.logs', { id: 'p' });
    await ask('protocol.traffic', {});
    await ask('calls.history', {});
    await ask('calls.export', {});
    await ask('catalog.groups', {});
    for (const format of ['claude', 'vscode', 'cursor'] as const) await ask('servers.export', { format });
    const walk = (await ask('servers.test', { id: 'p' })) as { ok: boolean };
    expect(walk.ok).toBe(true);
    h.host.clientFeatures.traffic.flush();

    const seen = {
      answers: JSON.stringify(answers),
      events: JSON.stringify(h.events),
      logs: h.logs.join('\n'),
      files: dataFileTexts(h.dir).join('\n'),
    };
    // The inspection really looked at DPoP traffic: the thumbprint reached the renderer, the calls were logged.
    expect(seen.answers).toContain(thumbprint);
    expect(seen.answers).toContain('whoami');
    expect(seen.events).toContain('auth.changed');
    for (const [where, text] of Object.entries(seen)) {
      expect(text.includes(jwk.d), `private key in ${where}`).toBe(false);
      expect(text.includes(raw!), `stored key in ${where}`).toBe(false);
    }
    // Other servers' stores hold no copy either: one account only has the key.
    const accounts = (await h.credentials.accounts?.()) ?? [];
    const holders = [];
    for (const a of accounts) if ((await h.credentials.get(a))?.includes(jwk.d) === true) holders.push(a);
    expect(holders).toEqual([dpopAccount('p')]);
  });
});
