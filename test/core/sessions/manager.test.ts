// The session manager's policies: shared connects, cancellation on remove, consent before spawn, start-up of
// many servers, runtime update / disconnect, events.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchFingerprint } from '../../../electron/core/servers/approval.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, alive, countedServer, fixture, makeSessionHost, spawns, stdioServer, until, type SessionHarness } from './helpers.js';

let dir: string;
let h: SessionHarness;

beforeEach(() => {
  dir = tempDir('sb-sessions-');
  h = makeSessionHost(dir);
});

afterEach(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

describe('session manager', () => {
  it('racing connects share one attempt and one spawn', async () => {
    const log = join(dir, 'spawns.log');
    await addApproved(h.host, countedServer('echo', fixture('echo-stdio.ts'), log));
    const [a, b, c] = await Promise.all([h.sessions.connect('echo'), h.sessions.connect('echo'), h.sessions.client('echo')]);
    expect(a.state).toBe('connected');
    expect(b.state).toBe('connected');
    expect(c).toBe(await h.sessions.client('echo'));
    expect(spawns(log)).toHaveLength(1);
    expect(h.statuses('echo').filter((s) => s.state === 'connecting')).toHaveLength(1);
  });

  it('remove during connect cancels the attempt and kills the child', async () => {
    const log = join(dir, 'spawns.log');
    await addApproved(h.host, countedServer('hang', fixture('hang.ts'), log, { lifecycle: 'initialize', timeouts: { connectSecs: 60 } }));
    const pending = h.sessions.client('hang');
    await until(() => spawns(log).length === 1, 10_000, 'spawn');
    const pid = spawns(log)[0]!;
    expect(alive(pid)).toBe(true);
    const started = Date.now();
    await h.host.remove('hang');
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(alive(pid)).toBe(false);
    expect(h.sessions.status('hang').state).toBe('disconnected');
  });

  it('an unapproved stdio server is never spawned; approval lets it connect', async () => {
    const log = join(dir, 'spawns.log');
    await h.host.add(countedServer('wild', fixture('echo-stdio.ts'), log, { startup: 'eager' }));
    expect(h.sessions.status('wild')).toMatchObject({ state: 'disconnected', error: { code: 'approval_required' } });
    expect(await h.sessions.connect('wild')).toMatchObject({ state: 'disconnected', error: { code: 'approval_required' } });
    await expect(h.sessions.client('wild')).rejects.toMatchObject({ code: 'approval_required' });
    expect((await h.sessions.startAll()).requiredFailures).toEqual([]);
    await new Promise((r) => setTimeout(r, 300));
    expect(spawns(log)).toHaveLength(0);

    // Approving the exact launch connects it (eager startup).
    const config = h.host.config('wild');
    if (config.transport.type !== 'stdio') throw new Error('stdio expected');
    await h.host.approve('wild', launchFingerprint(config.transport));
    await until(() => h.sessions.status('wild').state === 'connected', 15_000, 'connected');
    expect(spawns(log)).toHaveLength(1);

    // Changing the launch needs approval again: the session is released and not respawned.
    const input = countedServer('wild', fixture('echo-stdio.ts'), log, { startup: 'eager' }, { EXTRA: '1' });
    await h.host.update('wild', input);
    await until(() => h.sessions.status('wild').error?.code === 'approval_required', 15_000, 'approval_required');
    expect(h.sessions.status('wild').state).toBe('disconnected');
    expect(spawns(log)).toHaveLength(1);
  });

  it('starts 10 servers at once; two broken ones fail and the other eight connect', async () => {
    for (let i = 0; i < 8; i++) await addApproved(h.host, stdioServer(`ok-${i}`, fixture('echo-stdio.ts'), { startup: 'eager' }));
    await addApproved(h.host, stdioServer('broken-exit', fixture('exit-at-once.ts'), { startup: 'eager', required: true }));
    await addApproved(
      h.host,
      stdioServer('broken-hang', fixture('hang.ts'), { startup: 'eager', timeouts: { probeSecs: 1, connectSecs: 3 } }),
    );
    await h.host.shutdown(); // registration above already connected them; start again from cold
    const started = Date.now();
    const report = await h.sessions.startAll();
    const elapsed = Date.now() - started;
    const states = Object.fromEntries(h.host.configs().map((c) => [c.id, h.sessions.status(c.id).state]));
    for (let i = 0; i < 8; i++) expect(states[`ok-${i}`]).toBe('connected');
    expect(states['broken-exit']).toBe('failed');
    expect(states['broken-hang']).toBe('failed');
    expect(h.sessions.status('broken-hang').error?.code).toBe('timeout');
    expect(report.requiredFailures).toEqual([{ id: 'broken-exit', message: expect.stringMatching(/exited with code 3/) }]);
    expect(elapsed).toBeLessThan(25_000);
  });

  it('manual servers are skipped at start-up; background ones are not awaited', async () => {
    await addApproved(h.host, stdioServer('manual', fixture('echo-stdio.ts'), { startup: 'manual' }));
    await addApproved(
      h.host,
      stdioServer('bg', fixture('hang.ts'), { startup: 'background', lifecycle: 'initialize', timeouts: { connectSecs: 30 } }),
    );
    await h.host.shutdown();
    const started = Date.now();
    await h.sessions.startAll();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(h.sessions.status('manual').state).toBe('disconnected');
    expect(h.sessions.status('bg').state).toBe('connecting');
  });

  it('update reconnects a connected server with the new config; disconnect keeps it registered', async () => {
    await addApproved(h.host, stdioServer('echo', fixture('echo-stdio.ts')));
    expect((await h.sessions.connect('echo')).lifecycle).toBe('discover');
    await h.host.update('echo', stdioServer('echo', fixture('echo-stdio.ts'), { lifecycle: 'initialize' }));
    await until(() => h.sessions.status('echo').lifecycle === 'initialize', 15_000, 'reconnected with initialize');
    expect(h.sessions.status('echo')).toMatchObject({ state: 'connected', protocolVersion: '2025-11-25' });

    const after = await h.sessions.disconnect('echo');
    expect(after.state).toBe('disconnected');
    expect(after.error).toBeUndefined();
    expect(h.host.configs().map((c) => c.id)).toEqual(['echo']);
    expect((await h.sessions.restart('echo')).state).toBe('connected');
  });

  it('pushes status and log events through the host event bus', async () => {
    await addApproved(h.host, stdioServer('echo', fixture('echo-stdio.ts')));
    await h.sessions.connect('echo');
    const logs = h.events.filter((e) => e.event === 'servers.log');
    expect(logs.length).toBeGreaterThan(2);
    const entries = h.sessions.logs('echo');
    expect(entries.map((e) => e.seq)).toEqual([...entries.keys()].map((i) => i + 1));
    expect(h.statuses('echo').at(-1)).toMatchObject({ state: 'connected' });
  });
});
