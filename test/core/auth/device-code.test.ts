// Device sign-in (RFC 8628) against the test authorization server's device endpoint: success (the grant is stored
// and the server connects), slow_down (+5 s between polls), expiry, denial, cancel, a registered client when none is
// configured, and a clear refusal when the server offers no device sign-in. No browser is ever opened by itself.
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthStatus } from '../../../shared/domains/auth.js';
import { startWorld, type World } from '../../fixtures/auth/oauth-world.js';
import { addHttpServer, makeAuthHost, until, type AuthHarness } from './helpers.js';

let world: World | undefined;
let h: AuthHarness | undefined;
afterEach(async () => {
  await h?.cleanup();
  await world?.close();
  h = undefined;
  world = undefined;
});

async function setup(
  device: { clientId?: string; interval: number; expiresIn: number; slowDownPolls?: number; padUri?: number; padComplete?: number },
  configure = true,
): Promise<{ world: World; h: AuthHarness }> {
  world = await startWorld({ device });
  h = makeAuthHost();
  await addHttpServer(h.host, 'tv', world.mcpUrl);
  if (configure)
    await h.auth.setClient('tv', { grant: 'device_code', ...(device.clientId !== undefined ? { clientId: device.clientId } : {}) });
  return { world, h };
}

describe('device sign-in', () => {
  it('shows the code and page, polls until it is entered, stores the grant and connects', async () => {
    const { world, h } = await setup({ clientId: 'tv-client', interval: 1, expiresIn: 120 });
    const started = await h.auth.deviceStart('tv');
    expect(started).toMatchObject({ state: 'in-progress', kind: 'oauth', flow: { step: 'device' } });
    const device = started.device!;
    expect(device.userCode).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
    expect(device.verificationUri).toBe(`${world.issuer}/device`);
    expect(device.verificationUriComplete).toBe(`${world.issuer}/device?user_code=${device.userCode}`);
    expect(device.intervalSecs).toBe(1);
    expect(device.expiresAt).toBeGreaterThan(Date.now() + 100_000);
    expect(h.opener.opened).toEqual([]);
    // Opening the page is a separate request, through the safe opener.
    await h.auth.deviceOpen('tv');
    expect(h.opener.opened).toEqual([device.verificationUriComplete]);

    await until(() => world.as.devicePolls.length >= 1);
    world.as.decideDevice(device.userCode, true);
    const done = await h.auth.deviceSettled('tv');
    expect(done).toMatchObject({ state: 'signed-in', issuer: world.issuer });
    expect(done.device).toBeUndefined();
    expect(world.as.devicePolls.map((p) => p.answer).at(-1)).toBe('tokens');
    expect(world.as.devicePolls.slice(0, -1).every((p) => p.answer === 'authorization_pending')).toBe(true);
    await until(() => h.sessions.status('tv').state === 'connected');
    const client = await h.sessions.client('tv');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami']);
    expect(world.bearerSeen.some((b) => b.startsWith('Bearer at_'))).toBe(true);
    expect(h.opener.opened).toHaveLength(1);
  });

  it('slow_down adds 5 s to the interval', async () => {
    const { world, h } = await setup({ clientId: 'tv-client', interval: 1, expiresIn: 120, slowDownPolls: 1 });
    const intervals: number[] = [];
    h.host.events.subscribe((event, payload) => {
      if (event === 'auth.changed' && (payload as AuthStatus).device !== undefined)
        intervals.push((payload as AuthStatus).device!.intervalSecs);
    });
    const started = await h.auth.deviceStart('tv');
    world.as.decideDevice(started.device!.userCode, true);
    expect((await h.auth.deviceSettled('tv')).state).toBe('signed-in');
    const polls = world.as.devicePolls;
    expect(polls.map((p) => p.answer)).toEqual(['slow_down', 'tokens']);
    expect(polls[1]!.at - polls[0]!.at).toBeGreaterThanOrEqual(6000 - 50);
    expect(intervals).toContain(6);
  });

  it('stops when the code expires', async () => {
    const { world, h } = await setup({ clientId: 'tv-client', interval: 1, expiresIn: 2 });
    await h.auth.deviceStart('tv');
    const done = await h.auth.deviceSettled('tv');
    expect(done.state).not.toBe('in-progress');
    expect(done.device).toBeUndefined();
    expect(done.flow?.failed).toMatchObject({ step: 'device' });
    expect(done.flow?.failed?.message).toMatch(/expired before it was entered/);
    expect(world.as.devicePolls.every((p) => p.answer === 'authorization_pending' || p.answer === 'expired_token')).toBe(true);
    expect(world.tokenRequests.authorization_code).toBe(0);
  });

  it('reports a declined code', async () => {
    const { world, h } = await setup({ clientId: 'tv-client', interval: 1, expiresIn: 120 });
    const started = await h.auth.deviceStart('tv');
    world.as.decideDevice(started.device!.userCode, false);
    const done = await h.auth.deviceSettled('tv');
    expect(done.flow?.failed?.message).toBe('The sign-in was declined on the verification page');
    expect(world.as.devicePolls.map((p) => p.answer).at(-1)).toBe('access_denied');
    expect(done.state).toBe('signed-out');
  });

  it('cancels on request', async () => {
    const { world, h } = await setup({ clientId: 'tv-client', interval: 1, expiresIn: 120 });
    await h.auth.deviceStart('tv');
    await until(() => world.as.devicePolls.length >= 1);
    const cancelled = await h.auth.deviceCancel('tv');
    expect(cancelled.device).toBeUndefined();
    expect(cancelled.state).toBe('signed-out');
    await h.auth.deviceSettled('tv');
  });

  it('registers a client for device sign-in when none is configured, and "Sign in" uses the device flow for a device client', async () => {
    const { world, h } = await setup({ interval: 1, expiresIn: 120 }, false);
    const started = await h.auth.deviceStart('tv');
    expect(started.device?.userCode).toBeDefined();
    world.as.decideDevice(started.device!.userCode, true);
    expect((await h.auth.deviceSettled('tv')).state).toBe('signed-in');

    // With a device client configured, the ordinary Sign in starts a device sign-in, never a browser.
    await h.auth.signOut('tv');
    await h.auth.setClient('tv', { grant: 'device_code' });
    const again = await h.auth.begin('tv');
    expect(again.device?.userCode).toBeDefined();
    expect(h.opener.opened).toEqual([]);
    await h.auth.deviceCancel('tv');
  });

  it('says when the authorization server offers no device sign-in', async () => {
    world = await startWorld();
    h = makeAuthHost();
    await addHttpServer(h.host, 'tv', world.mcpUrl);
    const status = await h.auth.deviceStart('tv');
    expect(status.device).toBeUndefined();
    expect(status.flow?.failed).toMatchObject({ step: 'discovery' });
    expect(status.flow?.failed?.message).toMatch(/does not offer device sign-in \(no device_authorization_endpoint\)/);
  });
});

describe('device sign-in against a hostile verification page address', () => {
  for (const [field, pad] of [
    ['verification_uri', { padUri: 10_000 }],
    ['verification_uri_complete', { padComplete: 10_000 }],
  ] as const) {
    it(`refuses a 10 KB ${field} with url_refused, and shows or logs none of it`, async () => {
      const { h } = await setup({ clientId: 'tv-client', interval: 1, expiresIn: 120, ...pad });
      const status = await h.auth.deviceStart('tv');
      expect(status.device).toBeUndefined();
      expect(status.flow?.failed).toMatchObject({ step: 'device' });
      expect(status.flow?.failed?.message).toMatch(
        new RegExp(`${field} is \\d+ characters long; page addresses over 2048 characters are refused`),
      );
      expect(JSON.stringify(status)).not.toContain('aaaaaaaaaa');
      expect(JSON.stringify(h.sessions.logs('tv'))).not.toContain('aaaaaaaaaa');
      expect(h.opener.opened).toEqual([]);
    });
  }

  it('accepts an address of exactly the bound', async () => {
    // The issuer's port is known once it listens: a first world measures it, a second pads to the bound.
    const first = await setup({ clientId: 'tv-client', interval: 1, expiresIn: 120 });
    const pad = 2048 - `${first.world.issuer}/device?pad=`.length;
    await first.h.cleanup();
    await first.world.close();
    const again = await setup({ clientId: 'tv-client', interval: 1, expiresIn: 120, padUri: pad });
    const status = await again.h.auth.deviceStart('tv');
    expect(status.device?.verificationUri).toHaveLength(2048);
    await again.h.auth.deviceCancel('tv');
  });
});
