// Concurrent restarts while calls run (issue 22 item 7): restarts and connects of one server are serialized and
// the last request wins, so the server ends connected, with exactly one live server process and none orphaned.
// The fixture lingers after its stdin closes, which keeps each release open long enough for the requests to race.
import { describe, expect, it } from 'vitest';
import { descendantsOf, listProcesses, type ProcessInfo } from '../../../testing/process-tree.js';
import { addApproved, fixture, stdioServer, until, useSessionHost } from './helpers.js';

const t = useSessionHost();

/** The live fixture processes below this test runner. */
function fixtureProcesses(): ProcessInfo[] {
  return descendantsOf(process.pid, listProcesses()).filter((p) => p.command.includes('lingering-stdio.ts'));
}

describe('concurrent restarts', () => {
  it('five restarts with 20 calls in flight end connected, with one server process', async () => {
    await addApproved(t.h.host, stdioServer('linger', fixture('lingering-stdio.ts'), {}, { LINGER_MS: '800' }));
    expect((await t.h.sessions.connect('linger')).state).toBe('connected');

    const calls = Array.from({ length: 20 }, (_, i) =>
      t.h.host.calls.call({ name: 'mcp__linger__slow', arguments: { ms: 50 + 20 * i, steps: 2 } }).catch((e: unknown) => e),
    );
    const restarts = Array.from({ length: 5 }, () => t.h.sessions.restart('linger'));
    const outcomes = await Promise.all(restarts);
    await Promise.all(calls);

    for (const status of outcomes) expect(status.state).toBe('connected');
    expect(t.h.sessions.status('linger').state).toBe('connected');
    // Released processes linger a moment before they exit; what must remain is the live session's process alone.
    await until(() => fixtureProcesses().length <= 1, 15_000, 'released server processes to exit');
    expect(fixtureProcesses()).toHaveLength(1);
    // The session really is usable: a connect is a no-op and a call goes through.
    expect((await t.h.sessions.connect('linger')).state).toBe('connected');
    const echoed = await t.h.host.calls.call({ name: 'mcp__linger__echo', arguments: { text: 'after the restarts' } });
    expect(echoed.presentation.text).toBe('after the restarts');

    await t.h.sessions.disconnect('linger');
    await until(() => fixtureProcesses().length === 0, 15_000, 'the server process to exit after disconnect');
  });
});
