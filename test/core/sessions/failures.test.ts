// The connection doctor and recovery against hostile fixture servers: timeouts in the right phase, exit code
// and stderr, command not found, a crash mid-session, backoff.
import { describe, expect, it } from 'vitest';
import { addApproved, fixture, stdioServer, until, useSessionHost } from './helpers.js';

const t = useSessionHost();

describe('connection doctor', () => {
  it('a server that never answers times out in the handshake phase (auto: the probe is bounded, then initialize)', async () => {
    await addApproved(t.h.host, stdioServer('hang', fixture('hang.ts'), { timeouts: { probeSecs: 1, connectSecs: 2.5, setupSecs: 20 } }));
    const status = await t.h.sessions.connect('hang');
    expect(status.state).toBe('failed');
    expect(status.error).toMatchObject({
      code: 'timeout',
      evidence: { phase: 'handshake', timeout: { name: 'connectSecs', seconds: 2.5 } },
    });
    expect(status.error?.message).toMatch(/2\.5 s/);
    // Our own kill after the timeout is not reported as the server's exit.
    expect(status.error?.evidence?.signal).toBeUndefined();
    expect(status.error?.evidence?.exitCode).toBeUndefined();
  });

  it('with lifecycle discover the silent probe is reported as the probe timeout', async () => {
    await addApproved(
      t.h.host,
      stdioServer('hang', fixture('hang.ts'), { lifecycle: 'discover', timeouts: { probeSecs: 1, connectSecs: 5 } }),
    );
    const status = await t.h.sessions.connect('hang');
    expect(status.error).toMatchObject({ code: 'timeout', evidence: { phase: 'probe', timeout: { name: 'probeSecs', seconds: 1 } } });
  });

  it('the setup deadline bounds the whole setup including the fallback', async () => {
    await addApproved(
      t.h.host,
      stdioServer('hang', fixture('hang.ts'), { lifecycle: 'initialize', timeouts: { connectSecs: 10, setupSecs: 2 } }),
    );
    const status = await t.h.sessions.connect('hang');
    expect(status.error).toMatchObject({ code: 'timeout', evidence: { phase: 'handshake', timeout: { name: 'setupSecs', seconds: 2 } } });
  });

  it('a server that exits at once fails with its exit code and stderr', async () => {
    await addApproved(t.h.host, stdioServer('boom', fixture('exit-at-once.ts')));
    const status = await t.h.sessions.connect('boom');
    expect(status.state).toBe('failed');
    expect(status.error?.code).toBe('process_exited');
    expect(status.error?.evidence?.exitCode).toBe(3);
    expect(status.error?.evidence?.stderrTail).toContain('fatal: boom');
    expect(status.error?.message).toMatch(/exited with code 3/);
    expect(status.error?.message).toMatch(/fatal: boom/);
    expect(status.failures).toBe(1);
    expect(status.retryAt).toBeGreaterThan(Date.now());
    expect(t.h.sessions.logs('boom').some((l) => l.source === 'stderr' && l.text === 'fatal: boom')).toBe(true);
  });

  it('a missing command is reported as command_not_found with the searched PATH', async () => {
    await addApproved(t.h.host, {
      id: 'nope',
      name: 'nope',
      startup: 'manual',
      transport: { type: 'stdio', command: 'switchboard-no-such-command', args: [], env: { PATH: '/nonexistent/bin:/usr/bin' } },
    });
    const status = await t.h.sessions.connect('nope');
    expect(status.error?.code).toBe('command_not_found');
    expect(status.error?.evidence?.searchedPath).toEqual(['/nonexistent/bin', '/usr/bin']);
    expect(status.error?.message).toMatch(/\/nonexistent\/bin/);
  });

  it('explicit connects ignore the backoff; automatic use (client) waits for retryAt', async () => {
    await addApproved(t.h.host, stdioServer('boom', fixture('exit-at-once.ts'), { lifecycle: 'initialize' }));
    await t.h.sessions.connect('boom');
    await expect(t.h.sessions.client('boom')).rejects.toMatchObject({
      code: 'process_exited',
      message: expect.stringMatching(/next automatic attempt in/),
    });
    const second = await t.h.sessions.connect('boom');
    expect(second.failures).toBe(2);
    expect(second.retryAt! - Date.now()).toBeGreaterThan(1000); // 2 s after the second failure
  });
});

describe('recovery', () => {
  it('a crash mid-session shows disconnected with the reason, and the next use reconnects', async () => {
    await addApproved(t.h.host, stdioServer('crashy', fixture('crash-after.ts')));
    expect((await t.h.sessions.connect('crashy')).state).toBe('connected');
    const client = await t.h.sessions.client('crashy');
    await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow();
    await until(() => t.h.sessions.status('crashy').state === 'disconnected', 10_000, 'disconnected');
    const status = t.h.sessions.status('crashy');
    expect(status.error).toMatchObject({ code: 'process_exited', evidence: { exitCode: 1, phase: 'session' } });
    expect(status.error?.message).toMatch(/crashing/);
    expect(t.h.sessions.identity('crashy')).toBeUndefined();

    const again = await t.h.sessions.client('crashy');
    expect(again).not.toBe(client);
    const result = await again.callTool({ name: 'echo', arguments: { text: 'back' } });
    expect(result.content).toEqual([{ type: 'text', text: 'back' }]);
    expect(t.h.sessions.status('crashy')).toMatchObject({ state: 'connected', failures: 0 });
    expect(t.h.sessions.status('crashy').error).toBeUndefined();
  });
});
