// Resources, templates, subscriptions, prompts, completion and elicitation through the real Host, session
// manager and stdio transport, against the SDK v2 fixture server (test/fixtures/servers/res-server.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import { initialValues, parseElicitationSchema } from '../../../shared/domains/resources-elicitation.js';
import { PrintingUrlOpener } from '../../../electron/core/elicitation/url-opener.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, fixture, makeSessionHost, stdioServer, until, type SessionHarness } from '../sessions/helpers.js';

let dir: string;
let h: SessionHarness;
const opener = new PrintingUrlOpener(() => undefined);
const MiB = 1024 * 1024;

function events<E extends keyof EventMap>(name: E): EventMap[E][] {
  return h.events.filter((e) => e.event === name).map((e) => e.payload as EventMap[E]);
}

async function nextRequest(after: number): Promise<EventMap['elicitation.requested']['request']> {
  await until(() => events('elicitation.requested').length > after, 15_000, 'elicitation request');
  return events('elicitation.requested')[after]!.request;
}

async function callTool(id: string, name: string): Promise<unknown> {
  const client = await h.sessions.client(id);
  const result = await client.callTool({ name, arguments: {} });
  const block = (result.content as { type: string; text?: string }[])[0];
  return JSON.parse(block?.text ?? 'null') as unknown;
}

beforeAll(async () => {
  dir = tempDir('sb-res-');
  h = makeSessionHost(dir, { urlOpener: opener });
  await addApproved(
    h.host,
    stdioServer('res', fixture('res-server.ts'), { lifecycle: 'initialize', elicitation: true, limits: { messageBytes: 32 * MiB } }),
  );
  await addApproved(h.host, stdioServer('paged', fixture('res-server.ts'), { lifecycle: 'initialize' }, { RES_FIXTURE_PAGE: '4' }));
  await addApproved(h.host, stdioServer('off', fixture('res-server.ts'), { lifecycle: 'initialize', resources: false }));
  await addApproved(h.host, stdioServer('modern', fixture('res-server.ts'), { lifecycle: 'discover', elicitation: true }));
}, 60_000);

afterAll(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

describe('resources', () => {
  it('lists one page at a time with the cursor', async () => {
    const first = await h.host.interaction.resources.list('paged');
    expect(first.resources.map((r) => r.uri)).toEqual(['res://plain', 'res://data.json', 'res://readme.md', 'res://page.html']);
    expect(first.nextCursor).toBe('4');
    const second = await h.host.interaction.resources.list('paged', first.nextCursor);
    expect(second.resources[0]?.uri).toBe('res://evil.svg');
    const third = await h.host.interaction.resources.list('paged', second.nextCursor);
    expect(third.nextCursor).toBeUndefined();
  });

  it('refuses when resources are turned off for the server', async () => {
    await expect(h.host.interaction.resources.list('off')).rejects.toMatchObject({ code: 'invalid_request', serverId: 'off' });
  });

  it('reads text as inert text: plain (bidi stripped), pretty JSON, Markdown, HTML and SVG as source', async () => {
    const r = h.host.interaction.resources;
    const plain = await r.read('res', { uri: 'res://plain' });
    expect(plain.parts[0]).toMatchObject({ kind: 'text', text: 'Hello from a plain resource.evil' });
    const json = await r.read('res', { uri: 'res://data.json' });
    expect(json.parts[0]).toMatchObject({ kind: 'json', text: '{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}' });
    expect((await r.read('res', { uri: 'res://readme.md' })).parts[0]?.kind).toBe('markdown');
    const html = await r.read('res', { uri: 'res://page.html' });
    expect(html.parts[0]).toMatchObject({ kind: 'html' });
    expect(html.parts[0]?.text).toContain('<script>window.__pwned = 1</script>');
    const svg = await r.read('res', { uri: 'res://evil.svg' });
    expect(svg.parts[0]).toMatchObject({ kind: 'svg' });
    expect(svg.parts[0]?.imageData).toBeUndefined();
    expect(svg.parts[0]?.text).toContain('<script>');
  });

  it('checks images by magic bytes; other blobs keep size, MIME and data for saving', async () => {
    const r = h.host.interaction.resources;
    const png = await r.read('res', { uri: 'res://pixel.png' });
    expect(png.parts[0]).toMatchObject({ kind: 'image', imageMime: 'image/png', imageSize: { width: 1, height: 1 } });
    const fake = await r.read('res', { uri: 'res://fake.png' });
    expect(fake.parts[0]).toMatchObject({ kind: 'blob', mimeType: 'image/png' });
    expect(fake.parts[0]?.imageData).toBeUndefined();
    expect(fake.parts[0]?.notice).toMatch(/not a PNG, JPEG, GIF or WebP/);
    const bin = await r.read('res', { uri: 'res://file.bin' });
    expect(bin.parts[0]).toMatchObject({ kind: 'blob', blobBytes: 8, mimeType: 'application/octet-stream' });
    expect(Buffer.from(bin.parts[0]?.blobData ?? '', 'base64')).toEqual(Buffer.from([0, 1, 2, 3, 4, 5, 6, 7]));
  });

  it('a 20 MiB resource is a clear limit_exceeded error and the session stays usable', async () => {
    await expect(h.host.interaction.resources.read('res', { uri: 'res://huge' })).rejects.toMatchObject({
      code: 'limit_exceeded',
      message: expect.stringMatching(/16 MiB read limit \(limits\.resourceBytes\)/) as unknown,
    });
    expect((await h.host.interaction.resources.read('res', { uri: 'res://plain' })).parts).toHaveLength(1);
  });

  it('lists templates with their variables, completes a variable and reads the expanded URI', async () => {
    const r = h.host.interaction.resources;
    const { templates } = await r.templates('res');
    expect(templates).toEqual([expect.objectContaining({ uriTemplate: 'item://{category}/{id}', variables: ['category', 'id'] })]);
    const done = await r.complete('res', { type: 'ref/resource', uri: 'item://{category}/{id}' }, { name: 'category', value: 'v' });
    expect(done).toEqual({ values: ['vegetable'], hasMore: false });
    const read = await r.read('res', { uriTemplate: 'item://{category}/{id}', variables: { category: 'vegetable', id: '7' } });
    expect(read.uri).toBe('item://vegetable/7');
    expect(read.parts[0]?.text).toBe('Item 7 in vegetable');
  });

  it('a subscribed resource reports updates as resources.updated; unsubscribe ends it', async () => {
    const r = h.host.interaction.resources;
    await r.subscribe('res', 'res://counter');
    expect(r.subscriptions('res')).toEqual(['res://counter']);
    const bumped = (await callTool('res', 'bump')) as { subscribed: string[] };
    expect(bumped.subscribed).toEqual(['res://counter']);
    await until(() => events('resources.updated').some((e) => e.id === 'res' && e.uri === 'res://counter'), 5000, 'update');
    await r.unsubscribe('res', 'res://counter');
    expect(((await callTool('res', 'bump')) as { subscribed: string[] }).subscribed).toEqual([]);
  });
});

describe('prompts', () => {
  it('lists prompts, completes an argument and renders messages by role', async () => {
    const r = h.host.interaction.resources;
    const { prompts } = await r.prompts('res');
    expect(prompts.find((p) => p.name === 'review')).toMatchObject({
      title: 'Code review',
      arguments: [expect.objectContaining({ name: 'language', required: true }), expect.objectContaining({ name: 'code', required: true })],
    });
    expect(await r.complete('res', { type: 'ref/prompt', name: 'review' }, { name: 'language', value: 'py' })).toEqual({
      values: ['python'],
      hasMore: false,
    });
    const got = await r.prompt('res', 'review', { language: 'python', code: 'print(1)' });
    expect(got.description).toBe('Review of python');
    expect(got.messages).toEqual([
      { role: 'user', text: 'Please review this python:\nprint(1)' },
      { role: 'assistant', image: { mimeType: 'image/png', data: expect.any(String) as unknown } },
      { role: 'user', resource: { uri: 'res://plain', mimeType: 'text/plain', text: 'embedded text' } },
    ]);
  });
});

describe('elicitation', () => {
  it('shows every SEP-1034 default and SEP-1330 enum shape; the accepted answer reaches the server', async () => {
    const before = events('elicitation.requested').length;
    const pending = callTool('res', 'ask_defaults');
    const request = await nextRequest(before);
    expect(request).toMatchObject({ serverId: 'res', serverName: 'res', mode: 'form', message: 'Tell us about yourself' });
    const form = parseElicitationSchema(request.requestedSchema);
    expect(form.unsupported).toEqual([]);
    const values = initialValues(form);
    expect(values).toEqual({
      nickname: 'sparrow',
      age: 30,
      score: 0.5,
      subscribe: true,
      color: 'green',
      size: 'm',
      legacy: 'b',
      tags: ['x'],
      pets: ['dog'],
    });
    expect(form.fields.find((f) => f.name === 'size')).toMatchObject({
      kind: 'enum',
      options: [
        { value: 's', label: 'Small' },
        { value: 'm', label: 'Medium' },
        { value: 'l', label: 'Large' },
      ],
    });
    expect(form.fields.find((f) => f.name === 'legacy')).toMatchObject({
      kind: 'enum',
      options: [
        { value: 'a', label: 'Option A' },
        { value: 'b', label: 'Option B' },
      ],
    });
    expect(form.fields.find((f) => f.name === 'pets')).toMatchObject({
      kind: 'multiEnum',
      options: [
        { value: 'cat', label: 'Cat' },
        { value: 'dog', label: 'Dog' },
      ],
    });

    // An answer that breaks the schema is refused before anything is sent.
    await expect(
      h.host.interaction.elicitation.respond(request.requestId, 'accept', { ...values, email: 'nope', age: 200 }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await h.host.interaction.elicitation.respond(request.requestId, 'accept', {
      ...values,
      email: 'a@b.example',
      when: '2026-01-31T09:30:00Z',
    });
    expect(await pending).toEqual({ action: 'accept', content: { ...values, email: 'a@b.example', when: '2026-01-31T09:30:00Z' } });
  });

  it('SEP-1034: fields the user left empty get their defaults applied by the client', async () => {
    const before = events('elicitation.requested').length;
    const pending = callTool('res', 'ask_defaults');
    const request = await nextRequest(before);
    await h.host.interaction.elicitation.respond(request.requestId, 'accept', { nickname: 'wren', age: 41 });
    expect(await pending).toEqual({
      action: 'accept',
      content: {
        nickname: 'wren',
        age: 41,
        score: 0.5,
        subscribe: true,
        color: 'green',
        size: 'm',
        legacy: 'b',
        tags: ['x'],
        pets: ['dog'],
      },
    });
  });

  it('decline and cancel reach the server as such', async () => {
    let before = events('elicitation.requested').length;
    let pending = callTool('res', 'ask_plain');
    let request = await nextRequest(before);
    await h.host.interaction.elicitation.respond(request.requestId, 'decline');
    expect(await pending).toEqual({ action: 'decline' });
    before = events('elicitation.requested').length;
    pending = callTool('res', 'ask_plain');
    request = await nextRequest(before);
    await h.host.interaction.elicitation.respond(request.requestId, 'cancel');
    expect(await pending).toEqual({ action: 'cancel' });
  });

  it('URL mode: punycode host warned, opened only on consent, exactly that URL; complete notice handled', async () => {
    const before = events('elicitation.requested').length;
    const pending = callTool('res', 'ask_url');
    const request = await nextRequest(before);
    expect(request).toMatchObject({
      mode: 'url',
      url: 'https://xn--80ak6aa92e.com/authorize?session=42&step=1',
      // The host as it reads (decoded), with the warning saying it is punycode.
      urlHost: 'аррӏе.com',
    });
    expect(request.urlWarnings?.join(' ')).toMatch(/internationalized.*sent as xn--80ak6aa92e\.com/);
    expect(opener.opened).toEqual([]);
    await h.host.interaction.elicitation.respond(request.requestId, 'accept');
    expect(opener.opened).toEqual(['https://xn--80ak6aa92e.com/authorize?session=42&step=1']);
    expect(await pending).toEqual({ action: 'accept' });
  });

  it('closing the session cancels its pending request', async () => {
    const before = events('elicitation.requested').length;
    const pending = callTool('res', 'ask_plain').catch((e: unknown) => e);
    const request = await nextRequest(before);
    await h.sessions.disconnect('res');
    await until(() => events('elicitation.cancelled').some((e) => e.requestId === request.requestId), 5000, 'cancel');
    expect(h.host.interaction.elicitation.pending()).toEqual([]);
    await pending;
  });

  it('an MRTR input_required round on 2026-07-28 uses the same dialog', async () => {
    const before = events('elicitation.requested').length;
    const pending = callTool('modern', 'ask_mrtr');
    const request = await nextRequest(before);
    expect(request).toMatchObject({ serverId: 'modern', mode: 'form', message: 'Confirm the MRTR round' });
    await h.host.interaction.elicitation.respond(request.requestId, 'accept', { answer: 'yes' });
    expect(await pending).toEqual({ round: 'mrtr', response: { action: 'accept', content: { answer: 'yes' } } });
  });
});
