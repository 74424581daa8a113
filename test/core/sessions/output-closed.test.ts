// A stdio server that closes its stdout but keeps running (issue 17 item 3): the session ends at once — status
// failed, evidence "closed its output" — in-flight calls fail with a clear error instead of waiting for the 600 s
// deadline, and the whole process group is released.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processAlive } from '../../../electron/core/transports/process-group.js';
import { addApproved, countedServer, fixture, spawns, until, useSessionHost } from './helpers.js';

const t = useSessionHost();

describe('a stdio server that closes its output', () => {
  it('fails the in-flight call at once, marks the server failed and releases its process group', async () => {
    const log = join(t.dir, 'spawns.log');
    const childFile = join(t.dir, 'child.pid');
    await addApproved(
      t.h.host,
      countedServer('eof', fixture('hostile-eof.ts'), log, { lifecycle: 'initialize' }, { CHILD_PID_FILE: childFile }),
    );
    expect((await t.h.sessions.connect('eof')).state).toBe('connected');

    const outcome = await t.h.host.calls.call({ name: 'mcp__eof__close_output', arguments: {} });
    expect(outcome.status).toBe('error');
    expect(outcome.error?.code).toBe('connection_closed');
    expect(outcome.error?.message, outcome.error?.message).toMatch(/closed its output/);
    // Ended by the closed output, not by the 600 s call deadline: that would have answered `timeout`, not the above.

    const status = t.h.sessions.status('eof');
    expect(status.state).toBe('failed');
    expect(status.error).toMatchObject({ code: 'connection_closed', evidence: { outputClosed: true } });
    expect(status.error?.message).toMatch(/closed its output/);
    expect(t.h.sessions.logs('eof').some((l) => /closed its output/.test(l.text))).toBe(true);

    // The server and the child it started in its group are stopped (zombies count as gone).
    await until(() => existsSync(childFile), 10_000, 'child pid file');
    const server = spawns(log)[0]!;
    const child = Number(readFileSync(childFile, 'utf8'));
    await until(() => !processAlive(server) && !processAlive(child), 15_000, 'process group released');
  });

  it('a server that closes its output right after the handshake is failed without any call', async () => {
    const log = join(t.dir, 'spawns.log');
    const childFile = join(t.dir, 'child.pid');
    await addApproved(
      t.h.host,
      countedServer(
        'eof',
        fixture('hostile-eof.ts'),
        log,
        { lifecycle: 'initialize' },
        { HOSTILE_CLOSE_AT_START: '1', CHILD_PID_FILE: childFile },
      ),
    );
    await t.h.sessions.connect('eof');
    await until(() => t.h.sessions.status('eof').state === 'failed', 15_000, 'failed');
    expect(t.h.sessions.status('eof').error?.evidence?.outputClosed).toBe(true);
    // Its group is released too: the server and the child it started are gone.
    await until(() => existsSync(childFile), 10_000, 'child pid file');
    const server = spawns(log)[0]!;
    const child = Number(readFileSync(childFile, 'utf8'));
    await until(() => !processAlive(server) && !processAlive(child), 15_000, 'process group released');
  });
});
