// The built-in demo server through the session manager: tools with progress and cancellation, resource, prompt.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoServerConfig } from '../../../electron/demo/demo-config.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, makeSessionHost, type SessionHarness } from './helpers.js';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'electron', 'demo', 'demo-server.ts');
let dir: string;
let h: SessionHarness;

beforeEach(() => {
  dir = tempDir('sb-demo-');
  h = makeSessionHost(dir);
});

afterEach(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

describe('demo server', () => {
  it('connects with 2026-07-28 and serves tools with progress and cancellation, a resource and a prompt', async () => {
    const config = demoServerConfig(process.execPath, script, {});
    await addApproved(h.host, {
      ...config,
      transport: { ...config.transport, args: ['--import', 'tsx', script] } as typeof config.transport,
    });
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
});
