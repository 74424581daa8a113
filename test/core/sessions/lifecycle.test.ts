// Lifecycle negotiation against real fixture servers: auto, discover, initialize, the fresh-transport
// fallback and the cached discovery verdict.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addApproved, countedServer, fixture, localFixture, makeSessionHost, spawns, stdioServer, useSessionHost } from './helpers.js';

const t = useSessionHost();

describe('lifecycle negotiation', () => {
  it('auto against a serveStdio server negotiates 2026-07-28 through server/discover and captures identity', async () => {
    await addApproved(t.h.host, stdioServer('echo', fixture('echo-stdio.ts')));
    const status = await t.h.sessions.connect('echo');
    expect(status).toMatchObject({ state: 'connected', protocolVersion: '2026-07-28', lifecycle: 'discover', failures: 0 });
    expect(t.h.sessions.identity('echo')).toEqual({
      name: 'echo-fixture',
      title: 'Echo Fixture',
      version: '1.0.0',
      capabilities: ['prompts', 'resources', 'tools'],
      instructions: 'Echo server instructions',
    });
    const client = await t.h.sessions.client('echo');
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    const texts = t.h.sessions.logs('echo').map((l) => l.text);
    expect(texts).toContain('Probing server/discover');
    expect(texts).toContain('Connected with 2026-07-28 (discover)');
    // Approval cleared the approval_required error, then the connect ran.
    const seen = t.h.statuses('echo');
    expect(seen.map((s) => s.state)).toEqual(['disconnected', 'connecting', 'connected']);
    expect(seen[0]?.error).toBeUndefined();
  });

  it('auto against a v1 initialize-only server falls back to initialize', async () => {
    await addApproved(t.h.host, stdioServer('v1', fixture('legacy-v1-stdio.ts')));
    const status = await t.h.sessions.connect('v1');
    expect(status).toMatchObject({ state: 'connected', protocolVersion: '2025-11-25', lifecycle: 'initialize' });
    expect(t.h.sessions.identity('v1')).toMatchObject({ name: 'legacy-v1-fixture', instructions: 'Legacy v1 server instructions' });
    expect(t.h.sessions.logs('v1').map((l) => l.text)).toContain('Falling back to initialize');
  });

  it('lifecycle initialize speaks at most 2025-11-25 even to a 2026 server', async () => {
    await addApproved(t.h.host, stdioServer('echo', fixture('echo-stdio.ts'), { lifecycle: 'initialize' }));
    expect(await t.h.sessions.connect('echo')).toMatchObject({
      state: 'connected',
      protocolVersion: '2025-11-25',
      lifecycle: 'initialize',
    });
    expect(t.h.sessions.logs('echo').map((l) => l.text)).not.toContain('Probing server/discover');
  });

  it('lifecycle discover pins 2026-07-28 and fails with protocol_mismatch on an older server', async () => {
    await addApproved(t.h.host, stdioServer('old', fixture('legacy-v1-stdio.ts'), { lifecycle: 'discover' }));
    const status = await t.h.sessions.connect('old');
    expect(status.state).toBe('failed');
    expect(status.error).toMatchObject({ code: 'protocol_mismatch', serverId: 'old', evidence: { phase: 'probe' } });
    expect(status.error?.message).toMatch(/2026-07-28/);
    await addApproved(t.h.host, stdioServer('new', fixture('echo-stdio.ts'), { lifecycle: 'discover' }));
    expect(await t.h.sessions.connect('new')).toMatchObject({ state: 'connected', protocolVersion: '2026-07-28', lifecycle: 'discover' });
  });

  it('a server silent on server/discover falls back within the probe bound', async () => {
    await addApproved(t.h.host, stdioServer('silent', fixture('silent-discover.ts'), { timeouts: { probeSecs: 1.5 } }));
    const started = Date.now();
    const status = await t.h.sessions.connect('silent');
    const elapsed = Date.now() - started;
    expect(status).toMatchObject({ state: 'connected', lifecycle: 'initialize', protocolVersion: '2025-11-25' });
    // It waited for the probe bound (and connected: a probe without a bound would wait for server/discover for ever).
    expect(elapsed).toBeGreaterThanOrEqual(1400);
  });

  it('a server that exits on the probe is retried once on a fresh transport; the cached verdict skips the probe next time', async () => {
    const log = join(t.dir, 'spawns.log');
    const initLog = join(t.dir, 'init.log');
    await addApproved(t.h.host, countedServer('exiter', localFixture('exit-on-discover.ts'), log, {}, { INIT_LOG: initLog }));
    const first = await t.h.sessions.connect('exiter');
    expect(first).toMatchObject({ state: 'connected', lifecycle: 'initialize', protocolVersion: '2025-11-25' });
    expect(spawns(log)).toHaveLength(2);
    const texts = t.h.sessions.logs('exiter').map((l) => l.text);
    expect(texts.some((t) => t.includes('falling back to initialize on a fresh transport'))).toBe(true);

    await t.h.sessions.disconnect('exiter');
    expect(t.h.sessions.status('exiter').state).toBe('disconnected');
    expect(await t.h.sessions.connect('exiter')).toMatchObject({ state: 'connected', lifecycle: 'initialize' });
    expect(spawns(log)).toHaveLength(3);

    // Not advertised: roots, sampling, logging (checked on what the server received).
    const inits = readFileSync(initLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { capabilities: Record<string, unknown> });
    expect(inits.length).toBe(2);
    for (const init of inits) {
      expect(Object.keys(init.capabilities)).not.toContain('roots');
      expect(Object.keys(init.capabilities)).not.toContain('sampling');
      expect(Object.keys(init.capabilities)).not.toContain('logging');
    }
  });

  it('reuses a cached server/discover result on the next connect and persists the cache to a file', async () => {
    const cacheFile = join(t.dir, 'cache', 'discovery.json');
    const first = makeSessionHost(t.dir, { cacheFile });
    try {
      await addApproved(first.host, stdioServer('echo', fixture('echo-stdio.ts')));
      expect(await first.sessions.connect('echo')).toMatchObject({ state: 'connected', lifecycle: 'discover' });
    } finally {
      await first.host.shutdown();
    }
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as { entries: Record<string, { prior: { kind: string } }> };
    expect(cached.entries.echo?.prior.kind).toBe('modern');

    // A fresh manager (app restart) reads the file and skips the probe.
    const second = makeSessionHost(t.dir, { cacheFile });
    try {
      expect(await second.sessions.connect('echo')).toMatchObject({
        state: 'connected',
        lifecycle: 'discover',
        protocolVersion: '2026-07-28',
      });
      const texts = second.sessions.logs('echo').map((l) => l.text);
      expect(texts).toContain('Using the cached server/discover result');
      expect(texts).not.toContain('Probing server/discover');
    } finally {
      await second.host.shutdown();
    }
  });
});
