// A stdio server whose launch fails is started once per connect, not again for the initialize fallback, and the
// error says why; a legacy server that reads the probe and exits still gets its one retry on a fresh transport.
// Real fixtures counting their spawns in a file.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addApproved, countedServer, fixture, localFixture, spawns, useSessionHost } from './helpers.js';

const t = useSessionHost();

describe('a server that crashes at start', () => {
  it('crashing while loading (a stack trace): spawned once per connect, and the error says why it was not retried', async () => {
    const log = join(t.dir, 'spawns.log');
    await addApproved(t.h.host, countedServer('crash', fixture('crash-at-start.ts'), log));
    const status = await t.h.sessions.connect('crash');
    expect(status.state).toBe('failed');
    expect(status.error?.code).toBe('process_exited');
    expect(status.error?.evidence?.launchFailed).toBe('it crashed while loading, before reading anything');
    expect(status.error?.message).toMatch(/Not started a second time: it crashed while loading/);
    expect(spawns(log)).toHaveLength(1);
    const texts = t.h.sessions.logs('crash').map((l) => l.text);
    expect(texts.some((x) => x.includes('falling back to initialize on a fresh transport'))).toBe(false);

    // The next connect is one more start, not two.
    await t.h.sessions.connect('crash');
    expect(spawns(log)).toHaveLength(2);
  });

  it('a missing module: spawned once, named in the error', async () => {
    const log = join(t.dir, 'spawns.log');
    await addApproved(t.h.host, countedServer('missing', fixture('crash-at-start.ts'), log, {}, { CRASH_KIND: 'missing' }));
    const status = await t.h.sessions.connect('missing');
    expect(status.state).toBe('failed');
    expect(status.error?.evidence?.launchFailed).toMatch(/^a module it needs is missing \(“.*switchboard-no-such-package/);
    expect(status.error?.message).toMatch(/Not started a second time: a module it needs is missing/);
    expect(spawns(log)).toHaveLength(1);
  });

  it('a legacy server that reads the probe and exits is still retried once with initialize', async () => {
    const log = join(t.dir, 'spawns.log');
    await addApproved(t.h.host, countedServer('legacy', localFixture('exit-on-discover.ts'), log));
    const status = await t.h.sessions.connect('legacy');
    expect(status).toMatchObject({ state: 'connected', lifecycle: 'initialize' });
    expect(spawns(log)).toHaveLength(2);
  });
});
