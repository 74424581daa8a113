// @modelcontextprotocol/server-everything over stdio through the real Host: resources, a template with
// completion, prompts with arguments and its elicitation tool.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, makeSessionHost, until, type SessionHarness } from '../sessions/helpers.js';

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
let dir: string;
let h: SessionHarness;

beforeAll(async () => {
  dir = tempDir('sb-everything-');
  h = makeSessionHost(dir);
  await addApproved(h.host, {
    id: 'everything',
    name: 'Everything',
    transport: { type: 'stdio', command: process.execPath, args: [everything, 'stdio'] },
    startup: 'manual',
    lifecycle: 'initialize',
    elicitation: true,
  });
}, 60_000);

afterAll(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

describe('server-everything', () => {
  it('lists and reads its resources', async () => {
    const r = h.host.interaction.resources;
    const { resources } = await r.list('everything');
    expect(resources.length).toBeGreaterThan(0);
    const md = resources.find((x) => x.uri.endsWith('.md'));
    expect(md).toBeDefined();
    const read = await r.read('everything', { uri: md!.uri });
    expect(read.parts[0]).toMatchObject({ kind: 'markdown' });
    expect(read.parts[0]?.text?.length).toBeGreaterThan(10);
  });

  it('completes a template variable and reads the expanded URI', async () => {
    const r = h.host.interaction.resources;
    const { templates } = await r.templates('everything');
    const text = templates.find((t) => t.uriTemplate.includes('/text/'));
    expect(text?.variables).toEqual(['resourceId']);
    const done = await r.complete('everything', { type: 'ref/resource', uri: text!.uriTemplate }, { name: 'resourceId', value: '3' });
    expect(done.values).toEqual(['3']);
    const read = await r.read('everything', { uriTemplate: text!.uriTemplate, variables: { resourceId: '3' } });
    expect(read.uri).toBe('demo://resource/dynamic/text/3');
    expect(read.parts[0]?.kind).toBe('text');
  });

  it('runs prompts with arguments and completion', async () => {
    const r = h.host.interaction.resources;
    const { prompts } = await r.prompts('everything');
    expect(prompts.find((p) => p.name === 'args-prompt')?.arguments.map((a) => [a.name, a.required])).toEqual([
      ['city', true],
      ['state', false],
    ]);
    const dept = await r.complete('everything', { type: 'ref/prompt', name: 'completable-prompt' }, { name: 'department', value: 'E' });
    expect(dept.values).toEqual(['Engineering']);
    const names = await r.complete(
      'everything',
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'name', value: '' },
      { department: 'Sales' },
    );
    expect(names.values).toEqual(['David', 'Eve', 'Frank']);
    const got = await r.prompt('everything', 'args-prompt', { city: 'Lyon' });
    expect(got.messages[0]).toMatchObject({ role: 'user' });
    expect(got.messages[0]?.text).toContain('Lyon');
  });

  it('its elicitation tool reaches our dialog and gets the answer', async () => {
    const seen = () =>
      h.events.filter((e) => e.event === 'elicitation.requested').map((e) => (e.payload as EventMap['elicitation.requested']).request);
    const client = await h.sessions.client('everything');
    const call = client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    await until(() => seen().length > 0, 15_000, 'elicitation');
    const request = seen()[0]!;
    expect(request).toMatchObject({ serverId: 'everything', serverName: 'Everything', mode: 'form' });
    await h.host.interaction.elicitation.respond(request.requestId, 'decline');
    const result = await call;
    expect(JSON.stringify(result.content)).toMatch(/declined/i);
  });
});
