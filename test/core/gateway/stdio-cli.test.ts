// switchboard-gateway on stdio: real SDK v2 (both eras) and v1 clients launch it like another app would and
// reach the servers through the running gateway; without a running gateway it fails at once with a message
// that says to start Switchboard, and it never starts anything itself.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointPath, readEndpoint } from '../../../electron/core/gateway/endpoint-file.js';
import { GatewayWorld, ROOT, running, textOf, until } from './harness.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';

// Each test launches the entry point through tsx (a cold compile, slow on a loaded machine): 120 s per test.
let w: GatewayWorld;

beforeAll(async () => {
  w = new GatewayWorld();
  await w.addServer('fx', 'calls-stdio.ts');
  await w.addServer('res', 'res-server.ts');
  await w.enable();
  await w.client('Desk App', { mode: 'all', writes: 'allow' });
}, 120_000);
afterAll(async () => w?.close());

describe('the endpoint file', () => {
  it('is 0600, names the port and clients, holds no client token, and goes away when the gateway is off', async () => {
    const file = endpointPath(w.dir);
    const { statSync, readFileSync } = await import('node:fs');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const endpoint = readEndpoint(w.dir)!;
    expect(endpoint.url).toBe(w.url);
    expect(endpoint.pid).toBe(process.pid);
    expect(endpoint.clients.map((c) => c.name)).toEqual(['Desk App']);
    expect(readFileSync(file, 'utf8')).not.toMatch(/sbg_/);
  });
});

describe.each(['modern', 'legacy'] as const)('SDK v2 client through switchboard-gateway, %s', (era) => {
  it('lists, calls with progress, cancels, and reads prompts and resources', async () => {
    const { client: c, pid } = await w.stdio('desk app', era);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['mcp__fx__slow', 'mcp__res__bump']));
    const seen: number[] = [];
    const ok = await c.callTool({ name: 'mcp__fx__slow', arguments: { ms: 400, steps: 4 } }, { onprogress: (p) => seen.push(p.progress) });
    expect(textOf(ok)).toMatch(/done after 400ms/);
    expect(seen.length).toBeGreaterThanOrEqual(1);

    const controller = new AbortController();
    const progress: number[] = [];
    const call = c.callTool(
      { name: 'mcp__fx__slow', arguments: { ms: 20_000, steps: 200 } },
      {
        signal: controller.signal,
        onprogress: (p) => progress.push(p.progress),
      },
    );
    await until(() => progress.length >= 1, 30_000, 'progress');
    const before = w.h.sessions.logs('fx').filter((l) => l.text.includes('cancelled slow')).length;
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(
      () => w.h.sessions.logs('fx').filter((l) => l.text.includes('cancelled slow')).length > before,
      30_000,
      'server-side cancel',
    );

    const { prompts } = await c.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('mcp__res__review');
    const read = await c.readResource({ uri: 'switchboard://res/res://data.json' });
    expect((read.contents[0] as { text?: string }).text).toBe('{"a":1,"b":[true,null]}');
    const entry = w.host.calls.history.search({ query: 'Desk App' }).entries[0];
    expect(entry?.origin).toMatchObject({ kind: 'gateway', clientName: 'Desk App' });

    const child = pid()!;
    await c.close();
    await until(() => !running(child), 15_000, 'the entry point to exit');
  }, 120_000);
});

describe('v1 SDK client through switchboard-gateway', () => {
  it('lists and calls', async () => {
    const c = await w.v1Stdio('Desk App');
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toContain('mcp__fx__read');
    const result = await c.callTool({ name: 'mcp__fx__read', arguments: { ms: 1, label: 'v1-stdio' } });
    expect(result.structuredContent).toMatchObject({ label: 'v1-stdio' });
    const prompt = await c.getPrompt({ name: 'mcp__res__plain' });
    expect(JSON.stringify(prompt.messages)).toContain('Say hello.');
  }, 120_000);
});

describe('when it cannot start', () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', `${ROOT}/electron/gateway-cli/main.ts`, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      input: '',
    });

  it('fails at once, saying to start Switchboard, when no gateway is running', () => {
    const empty = tempDir('sb-gw-none-');
    try {
      const r = run(['--client', 'x', '--data-dir', empty]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/Switchboard is not running, or its gateway is off\. Start Switchboard/);
      expect(r.stdout).toBe('');
      expect(existsSync(endpointPath(empty))).toBe(false);
    } finally {
      cleanup(empty);
    }
  });

  it('names an unknown client and requires --client', () => {
    const r = run(['--client', 'nobody', '--data-dir', w.dir]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no gateway client named "nobody"/);
    const usage = run(['--data-dir', w.dir]);
    expect(usage.status).toBe(1);
    expect(usage.stderr).toMatch(/--client NAME is required/);
  });
});
