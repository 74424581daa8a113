// A server URL on a port fetch refuses fails at once with port_blocked naming the port (not "fetch failed (bad
// port)"), with no retry; the doctor's URL step says the same.
import { describe, expect, it } from 'vitest';
import { runDoctorWalk } from '../../../electron/core/doctor/doctor-walk.js';
import { useSessionHost } from '../sessions/helpers.js';

const t = useSessionHost();

describe('fetch-blocked ports', () => {
  it('connect fails with port_blocked naming the port, for Streamable HTTP and SSE', async () => {
    await t.h.host.add({ id: 'nine', name: 'nine', startup: 'manual', transport: { type: 'http', url: 'http://127.0.0.1:9/mcp' } });
    const status = await t.h.sessions.connect('nine');
    expect(status.state).toBe('failed');
    expect(status.error?.code).toBe('port_blocked');
    expect(status.error?.message).toMatch(/^Port 9 is on the list of ports fetch refuses to connect to/);
    expect(status.error?.message).not.toMatch(/fetch failed/);

    await t.h.host.add({ id: 'irc', name: 'irc', startup: 'manual', transport: { type: 'sse', url: 'http://127.0.0.1:6667/sse' } });
    expect((await t.h.sessions.connect('irc')).error).toMatchObject({ code: 'port_blocked' });
  });

  it('the doctor stops at the URL step and names the port', async () => {
    const config = { id: 'nine', name: 'nine', transport: { type: 'http' as const, url: 'http://127.0.0.1:9/mcp' } };
    const walk = await runDoctorWalk(t.h.host, { config }, t.h.host.doctor);
    const url = walk.steps.find((s) => s.id === 'url');
    expect(url).toMatchObject({ status: 'failed' });
    expect(url?.summary).toMatch(/^Port 9 /);
  });
});
