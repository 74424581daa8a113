// A server still connected while the host is in its stop stage serves no new tool call: the person's, a gateway
// client's and an app's call each fail with `shutting_down` instead of reaching the server, through the real
// composition (bootstrap) and a real stdio fixture whose process is looked for in the process list.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { bootstrap } from '../../../electron/bootstrap.js';
import { createSettingsStore } from '../../../electron/platform/settings-store.js';
import type { CallOutcome } from '../../../shared/domains/calls.js';
import type { ServerStatus } from '../../../shared/contract.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, fixture, stdioServer, until } from '../sessions/helpers.js';

const dirs: string[] = [];
const hosts: { shutdown(): Promise<unknown> }[] = [];

afterEach(async () => {
  for (const h of hosts.splice(0)) await h.shutdown();
  dirs.splice(0).forEach(cleanup);
});

/** Live (not zombie) processes whose command line holds `marker`. */
function processesWith(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.includes(marker) && !l.includes(' ps -eo'))
    .filter((l) => !/^\d+\s+Z/.test(l));
}

describe('tool calls while the host stops', () => {
  it('a connected server takes no new call from the person, a gateway client or an app once shutdown has begun', async () => {
    const d = tempDir('sb-call-shutdown-');
    dirs.push(d);
    const b = await bootstrap({ mode: 'headless', version: '0.0.0-test', settingsStore: createSettingsStore(d), credentials: 'memory' });
    hosts.push(b.host);
    const { host } = b;
    const marker = `sb-marker-${randomUUID()}`;
    const input = stdioServer('fx', fixture('echo-stdio.ts'));
    if (input.transport.type !== 'stdio') throw new Error('stdio expected');
    await addApproved(host, { ...input, transport: { ...input.transport, args: [...(input.transport.args ?? []), marker] } });
    expect(await host.sessions.connect('fx')).toMatchObject({ state: 'connected' });
    await until(
      () => {
        try {
          return host.catalog.tool('mcp__fx__echo') !== undefined;
        } catch {
          return false;
        }
      },
      20_000,
      'the echo tool in the catalog',
    );
    // Before shutdown the call runs.
    expect(await host.calls.call({ name: 'mcp__fx__echo', arguments: { text: 'before' } })).toMatchObject({ status: 'ok' });

    // Added last, this stop step runs first: the session is still up when the calls arrive.
    let during: { status: ServerStatus; person: CallOutcome; gateway: CallOutcome; app: CallOutcome; processes: string[] } | undefined;
    host.onShutdown({
      name: 'calls arrive',
      stage: 'stop',
      timeoutMs: 30_000,
      run: async () => {
        const status = host.sessions.status('fx');
        const route = await host.catalog.route('mcp__fx__echo');
        const appRoute = await host.catalog.appRoute('fx', 'echo');
        const [person, gateway, app] = await Promise.all([
          host.calls.call({ name: 'mcp__fx__echo', arguments: { text: 'too late' } }),
          host.calls.callRoute(route, { text: 'too late' }, { origin: { kind: 'gateway', clientId: 'c1', clientName: 'Client' } }),
          host.calls.callRoute(appRoute, { text: 'too late' }, { origin: { kind: 'app', serverId: 'fx', tool: 'echo' } }),
        ]);
        during = { status, person, gateway, app, processes: processesWith(marker) };
      },
    });
    const report = await host.shutdown({ timeoutMs: 30_000 });
    expect(report.steps.find((s) => s.name === 'calls arrive')?.outcome).toBe('ok');
    expect(during?.status.state).toBe('connected');
    expect(during?.processes).toHaveLength(1);
    for (const outcome of [during?.person, during?.gateway, during?.app]) {
      expect(outcome).toMatchObject({ status: 'error', error: { code: 'shutting_down' } });
      expect(outcome?.presentation.text).not.toContain('too late');
    }
    await until(() => processesWith(marker).length === 0, 15_000, 'the server process to end');
  });
});
