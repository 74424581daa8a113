// The session manager's policies: shared connects, cancellation on remove, consent before spawn, start-up of
// many servers, runtime update / disconnect, events.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import { addApproved, alive, countedServer, fixture, spawns, stdioServer, until, useSessionHost } from './helpers.js';

const t = useSessionHost();

describe('session manager', () => {
  it('racing connects share one attempt and one spawn', async () => {
    const log = join(t.dir, 'spawns.log');
    await addApproved(t.h.host, countedServer('echo', fixture('echo-stdio.ts'), log));
    const [a, b, c] = await Promise.all([t.h.sessions.connect('echo'), t.h.sessions.connect('echo'), t.h.sessions.client('echo')]);
    expect(a.state).toBe('connected');
    expect(b.state).toBe('connected');
    expect(c).toBe(await t.h.sessions.client('echo'));
    expect(spawns(log)).toHaveLength(1);
    expect(t.h.statuses('echo').filter((s) => s.state === 'connecting')).toHaveLength(1);
  });

  it('remove during connect cancels the attempt and kills the child', async () => {
    const log = join(t.dir, 'spawns.log');
    await addApproved(t.h.host, countedServer('hang', fixture('hang.ts'), log, { lifecycle: 'initialize', timeouts: { connectSecs: 60 } }));
    const pending = t.h.sessions.client('hang');
    await until(() => spawns(log).length === 1, 10_000, 'spawn');
    const pid = spawns(log)[0]!;
    expect(alive(pid)).toBe(true);
    await t.h.host.remove('hang');
    // Cancelled, not timed out (the connect would have waited 60 s).
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    expect(alive(pid)).toBe(false);
    expect(t.h.sessions.status('hang').state).toBe('disconnected');
  });

  it('an unapproved stdio server is never spawned; approval lets it connect', async () => {
    const log = join(t.dir, 'spawns.log');
    await t.h.host.add(countedServer('wild', fixture('echo-stdio.ts'), log, { startup: 'eager' }));
    expect(t.h.sessions.status('wild')).toMatchObject({ state: 'disconnected', error: { code: 'approval_required' } });
    expect(await t.h.sessions.connect('wild')).toMatchObject({ state: 'disconnected', error: { code: 'approval_required' } });
    await expect(t.h.sessions.client('wild')).rejects.toMatchObject({ code: 'approval_required' });
    expect((await t.h.sessions.startAll()).requiredFailures).toEqual([]);
    expect(spawns(log)).toHaveLength(0);

    // Approving the exact launch connects it (eager startup). One spawn only: a child started before the approval
    // would have logged its pid before the one started after it.
    await t.h.host.approve('wild', (await t.h.host.get('wild')).approval!.fingerprint);
    await until(() => t.h.sessions.status('wild').state === 'connected', 15_000, 'connected');
    expect(spawns(log)).toHaveLength(1);

    // Changing the launch needs approval again: the session is released and not respawned.
    const input = countedServer('wild', fixture('echo-stdio.ts'), log, { startup: 'eager' }, { EXTRA: '1' });
    await t.h.host.update('wild', input);
    await until(() => t.h.sessions.status('wild').error?.code === 'approval_required', 15_000, 'approval_required');
    expect(t.h.sessions.status('wild').state).toBe('disconnected');
    expect(spawns(log)).toHaveLength(1);
  });

  it('starts 10 servers at once; two broken ones fail and the other eight connect', async () => {
    for (let i = 0; i < 8; i++) await addApproved(t.h.host, stdioServer(`ok-${i}`, fixture('echo-stdio.ts'), { startup: 'eager' }));
    await addApproved(t.h.host, stdioServer('broken-exit', fixture('exit-at-once.ts'), { startup: 'eager', required: true }));
    await addApproved(
      t.h.host,
      stdioServer('broken-hang', fixture('hang.ts'), { startup: 'eager', timeouts: { probeSecs: 1, connectSecs: 3 } }),
    );
    // Registration above already connected them; start again from cold (shutdown is final: it would refuse startAll).
    await Promise.all(t.h.host.configs().map((c) => t.h.sessions.disconnect(c.id)));
    const mark = t.h.events.length;
    const report = await t.h.sessions.startAll();
    const states = Object.fromEntries(t.h.host.configs().map((c) => [c.id, t.h.sessions.status(c.id).state]));
    for (let i = 0; i < 8; i++) expect(states[`ok-${i}`]).toBe('connected');
    expect(states['broken-exit']).toBe('failed');
    expect(states['broken-hang']).toBe('failed');
    expect(t.h.sessions.status('broken-hang').error?.code).toBe('timeout');
    expect(report.requiredFailures).toEqual([{ id: 'broken-exit', message: expect.stringMatching(/exited with code 3/) }]);
    // At once: all ten were connecting before the first of them connected or failed.
    const statuses = t.h.events
      .slice(mark)
      .filter((e) => e.event === 'servers.status')
      .map((e) => e.payload as EventMap['servers.status']);
    const firstDone = statuses.findIndex((p) => p.status.state === 'connected' || p.status.state === 'failed');
    const startedFirst = new Set(
      statuses
        .slice(0, firstDone)
        .filter((p) => p.status.state === 'connecting')
        .map((p) => p.id),
    );
    expect(startedFirst.size).toBe(10);
  });

  it('manual servers are skipped at start-up; background ones are not awaited', async () => {
    await addApproved(t.h.host, stdioServer('manual', fixture('echo-stdio.ts'), { startup: 'manual' }));
    await addApproved(
      t.h.host,
      stdioServer('bg', fixture('hang.ts'), { startup: 'background', lifecycle: 'initialize', timeouts: { connectSecs: 30 } }),
    );
    // Approval may already have started them: back to nothing running, then a start-up pass (the host stays up, so
    // the test's own cleanup releases what it starts: shutting the host down here left the hang fixture running).
    await t.h.sessions.disconnect('manual');
    await t.h.sessions.disconnect('bg');
    await t.h.sessions.startAll();
    expect(t.h.sessions.status('manual').state).toBe('disconnected');
    // Not awaited: start-up returned while the background server (it never answers) is still connecting.
    expect(t.h.sessions.status('bg').state).toBe('connecting');
  });

  it('update reconnects a connected server with the new config; disconnect keeps it registered', async () => {
    await addApproved(t.h.host, stdioServer('echo', fixture('echo-stdio.ts')));
    expect((await t.h.sessions.connect('echo')).lifecycle).toBe('discover');
    await t.h.host.update('echo', stdioServer('echo', fixture('echo-stdio.ts'), { lifecycle: 'initialize' }));
    await until(() => t.h.sessions.status('echo').lifecycle === 'initialize', 15_000, 'reconnected with initialize');
    expect(t.h.sessions.status('echo')).toMatchObject({ state: 'connected', protocolVersion: '2025-11-25' });

    const after = await t.h.sessions.disconnect('echo');
    expect(after.state).toBe('disconnected');
    expect(after.error).toBeUndefined();
    expect(t.h.host.configs().map((c) => c.id)).toEqual(['echo']);
    expect((await t.h.sessions.restart('echo')).state).toBe('connected');
  });

  it('pushes status and log events through the host event bus', async () => {
    await addApproved(t.h.host, stdioServer('echo', fixture('echo-stdio.ts')));
    await t.h.sessions.connect('echo');
    const logs = t.h.events.filter((e) => e.event === 'servers.log');
    expect(logs.length).toBeGreaterThan(2);
    const entries = t.h.sessions.logs('echo');
    expect(entries.map((e) => e.seq)).toEqual([...entries.keys()].map((i) => i + 1));
    expect(t.h.statuses('echo').at(-1)).toMatchObject({ state: 'connected' });
  });
});
