// Workload identity federation (SEP-1933) against a real authorization server on 127.0.0.1: the workload's own
// identity token is the assertion of an RFC 7523 JWT bearer grant from a public client (its id in the body, no
// secret). No browser opens; a token the server refuses ends in needs-auth with the reason, no other grant is
// tried, and the token never reaches status or logs.
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type World } from '../../fixtures/auth/oauth-world.js';
import { addHttpServer, makeAuthHost, type AuthHarness } from './helpers.js';

const WORKLOAD_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.CANARY_workload.sig';

let world: World | undefined;
let h: AuthHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  await world?.close();
  h = undefined;
  world = undefined;
});

async function setUp(): Promise<{ world: World; h: AuthHarness }> {
  world = await startWorld({ workloadClient: { id: 'wif-workload', acceptsAssertion: (a) => a === WORKLOAD_TOKEN } });
  h = makeAuthHost();
  await addHttpServer(h.host, 'w', world.mcpUrl);
  return { world, h };
}

describe('workload identity', () => {
  it('presents the workload token as a JWT bearer grant and connects without a browser', async () => {
    const { world, h } = await setUp();
    const status = await h.auth.setClient('w', { grant: 'workload_identity', clientId: 'wif-workload', workloadToken: WORKLOAD_TOKEN });
    expect(status.kind).toBe('workload_identity');
    expect(status.client).toMatchObject({ grant: 'workload_identity', clientId: 'wif-workload', hasWorkloadToken: true, hasSecret: false });
    const connected = await h.sessions.connect('w');
    expect(connected.state, `${JSON.stringify(await h.auth.status('w'))} ${h.logs.join(' | ')}`).toBe('connected');
    await (await h.sessions.client('w')).listTools();
    expect(world.tokenRequests).toMatchObject({ authorization_code: 0, other: 1 });
    expect(h.opener.opened).toEqual([]);
    expect(JSON.stringify(await h.auth.status('w')) + h.logs.join('\n')).not.toContain('CANARY_');
    // Saving the settings again without the token keeps the stored one (the renderer never has it).
    await h.auth.setClient('w', { grant: 'workload_identity', clientId: 'wif-workload' });
    expect((await h.auth.status('w')).client).toMatchObject({ hasWorkloadToken: true });
  });

  it('a refused token ends in needs-auth with the reason; no browser, no other grant', async () => {
    const { world, h } = await setUp();
    await h.auth.setClient('w', {
      grant: 'workload_identity',
      clientId: 'wif-workload',
      workloadToken: 'eyJhbGciOiJFUzI1NiJ9.CANARY_old.sig',
    });
    expect((await h.sessions.connect('w')).state).toBe('needs-auth');
    const status = await h.auth.status('w');
    expect(status.reason).toMatch(/The workload identity token was refused: .*invalid_grant/);
    await expect(h.auth.runAuthorized('w', () => h.sessions.client('w').then((c) => c.listTools()))).rejects.toThrow(
      /refused|invalid_grant/,
    );
    expect(h.opener.opened).toEqual([]);
    expect(world.tokenRequests.authorization_code).toBe(0);
    expect(JSON.stringify(status) + h.logs.join('\n')).not.toContain('CANARY_');
  });

  it('needs a client id', async () => {
    const { h } = await setUp();
    await expect(h.auth.setClient('w', { grant: 'workload_identity', workloadToken: WORKLOAD_TOKEN })).rejects.toMatchObject({
      code: 'config_invalid',
    });
  });
});
