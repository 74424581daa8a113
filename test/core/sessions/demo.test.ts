// The built-in demo server through the session manager, opened in-process (no path, nothing spawned): tools with
// progress and cancellation, resource, prompt; and its definition holds no file path.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withBuiltinServers } from '../../../electron/demo/builtin-transport.js';
import { DEMO_COMMAND, demoServerConfig } from '../../../electron/demo/demo-config.js';
import { createDemoServer } from '../../../electron/demo/demo-server.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, makeSessionHost, testTransportFactory, type SessionHarness } from './helpers.js';

let dir: string;
let h: SessionHarness;

beforeEach(() => {
  dir = tempDir('sb-demo-');
  h = makeSessionHost(dir, { factory: withBuiltinServers(testTransportFactory, { [DEMO_COMMAND]: createDemoServer }) });
});

afterEach(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

describe('demo server', () => {
  it('stores a name, not a path, so a packaged app that moves still finds it', () => {
    const config = demoServerConfig();
    expect(config.transport).toEqual({ type: 'stdio', command: 'switchboard:demo', args: [], env: {} });
    expect(JSON.stringify(config)).not.toMatch(/[/\\]/);
  });

  it('connects in-process with 2026-07-28 and serves tools with progress and cancellation, a resource and a prompt', async () => {
    await addApproved(h.host, demoServerConfig());
    expect(await h.sessions.connect('demo')).toMatchObject({ state: 'connected', protocolVersion: '2026-07-28' });
    expect(h.sessions.identity('demo')?.capabilities).toEqual(['prompts', 'resources', 'tools']);
    const client = await h.sessions.client('demo');

    const progress: number[] = [];
    const done = await client.callTool(
      { name: 'slow', arguments: { seconds: 0.3, steps: 3 } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(done.content).toEqual([{ type: 'text', text: 'Done: 3 steps in 0.3 s' }]);
    // The last notification may race the result; the earlier ones arrive in order.
    expect(progress.slice(0, 2)).toEqual([1, 2]);

    const abort = new AbortController();
    const pending = client.callTool({ name: 'slow', arguments: { seconds: 10, steps: 10 } }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 300);
    await expect(pending).rejects.toThrow();

    const guide = await client.readResource({ uri: 'demo://guide' });
    expect(JSON.stringify(guide.contents)).toContain('Switchboard demo');
    const prompt = await client.getPrompt({ name: 'explain', arguments: { topic: 'MCP' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Explain MCP in three sentences.' });
  });

  it('also speaks the 2025 handshake, and reconnects after a disconnect', async () => {
    await addApproved(h.host, { ...demoServerConfig(), lifecycle: 'initialize' });
    expect(await h.sessions.connect('demo')).toMatchObject({ state: 'connected', protocolVersion: '2025-11-25' });
    await h.sessions.disconnect('demo');
    expect(await h.sessions.connect('demo')).toMatchObject({ state: 'connected' });
    const client = await h.sessions.client('demo');
    expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).structuredContent).toEqual({ sum: 5 });
  });
});
