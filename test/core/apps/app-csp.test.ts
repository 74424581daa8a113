// An app's declared origins against what this Switchboard listens on, with the apps fixture over stdio: a server on
// this computer may name a loopback origin, but never one of Switchboard's own ports (the shell's, the gateway's);
// each refusal is reported with the launch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../../shared/contract.js';
import { addApproved } from '../sessions/helpers.js';
import { APPS_FIXTURE, appsHarness, countedStdio, TEST_SANDBOX, TEST_WARM, type AppsHarness } from './helpers.js';

let t: AppsHarness;

beforeAll(async () => {
  t = await appsHarness((log) => countedStdio('fx', APPS_FIXTURE, log, { lifecycle: 'initialize', timeouts: { requestSecs: 20 } }));
}, 60_000);

afterAll(async () => {
  await t?.call('gateway.disable', {});
  await t?.close();
});

/** Opens the declared_script app of server `id` (it declares its APPS_SCRIPT_ORIGIN as a resource origin). */
async function openDeclared(id: string): Promise<InvokeResult<'apps.open'>> {
  const outcome = await t.call('tools.call', { name: `mcp__${id}__declared_script`, arguments: {} });
  expect(outcome.status).toBe('ok');
  return t.call('apps.open', { callId: outcome.callId });
}

describe('an app’s origins on this computer', () => {
  it('keeps a loopback origin a stdio server declares', async () => {
    const launch = await openDeclared('fx');
    expect(launch.csp.resourceDomains).toEqual(['http://127.0.0.1:9']);
    expect(launch.cspRefused).toEqual([]);
  });

  it('refuses a port the shell listens on, and says so with the launch', async () => {
    t.h.host.apps.setSandbox({ pageUrl: (id) => `${TEST_SANDBOX}?launch=${id}`, warmUrl: TEST_WARM, reservedPorts: () => [9] });
    try {
      const launch = await openDeclared('fx');
      expect(launch.csp.resourceDomains).toEqual([]);
      expect(launch.cspPolicy).not.toContain('127.0.0.1:9');
      expect(launch.cspRefused).toEqual([
        { list: 'resourceDomains', value: 'http://127.0.0.1:9', reason: "port 9 on this computer is Switchboard's own" },
      ]);
    } finally {
      t.h.host.apps.setSandbox({ pageUrl: (id) => `${TEST_SANDBOX}?launch=${id}`, warmUrl: TEST_WARM });
    }
  });

  it('refuses the gateway’s port', async () => {
    const gateway = await t.call('gateway.enable', { port: 0 });
    const port = gateway.port;
    expect(port).toBeGreaterThan(0);
    const config = countedStdio('gw', APPS_FIXTURE, `${t.dir}/spawns.log`, { lifecycle: 'initialize' });
    if (config.transport.type !== 'stdio') throw new Error('stdio expected');
    config.transport.env = { ...config.transport.env, APPS_SCRIPT_ORIGIN: `http://localhost:${port}` };
    await addApproved(t.h.host, config);
    const launch = await openDeclared('gw');
    expect(launch.csp.resourceDomains).toEqual([]);
    expect(launch.cspRefused).toEqual([
      { list: 'resourceDomains', value: `http://localhost:${port}`, reason: `port ${port} on this computer is Switchboard's own` },
    ]);
  });
});
