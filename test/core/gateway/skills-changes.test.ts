// A server's skills changing reaches the gateway's clients whose profile includes that server: after the server's
// notifications/skills/list_changed (the core lists again and finds the change), and after a listing in the core
// (the person opening the Skills tab) that finds one. Real SDK v2 clients over Streamable HTTP: a 2025-11-25 session
// gets resources/list_changed (skill files are resources) and notifications/skills/list_changed; a 2026-07-28 client
// gets resources/list_changed on its subscriptions/listen stream. A client that does not see the server is not told.
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as z from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GatewayWorld, until } from './harness.js';

const URI = 'skill://notes/SKILL.md';
let w: GatewayWorld;
let notesToken = '';
let otherToken = '';

beforeAll(async () => {
  w = new GatewayWorld();
  await w.addServer('notes', 'skills-notify.ts');
  await w.addServer('other', 'skills-notify.ts');
  await w.host.skills.approve('notes', URI);
  await w.host.skills.approve('other', URI);
  await w.enable();
  ({ token: notesToken } = await w.client('notes-only', { mode: 'all', servers: ['notes'], writes: 'allow' }));
  ({ token: otherToken } = await w.client('other-only', { mode: 'all', servers: ['other'], writes: 'allow' }));
}, 120_000);
afterAll(async () => w?.close());

interface Counts {
  resources: number;
  skills: number;
}

/** A 2025-11-25 session counting the two notifications. */
async function legacyWatcher(token: string): Promise<{ c: Client; n: Counts }> {
  const n: Counts = { resources: 0, skills: 0 };
  const c = await w.http(token, 'legacy', {}, (client) => {
    client.setNotificationHandler('notifications/resources/list_changed', () => void n.resources++);
    client.setNotificationHandler('notifications/skills/list_changed', { params: z.looseObject({}).optional() }, () => void n.skills++);
  });
  return { c, n };
}

/** A 2026-07-28 client whose listen stream asks for resource list changes. */
async function modernWatcher(token: string): Promise<{ c: Client; n: Counts }> {
  const n: Counts = { resources: 0, skills: 0 };
  const c = new Client(
    { name: 'gateway-test-modern', version: '1.0.0' },
    { listChanged: { resources: { autoRefresh: false, debounceMs: 0, onChanged: () => void n.resources++ } } },
  );
  await c.connect(new StreamableHTTPClientTransport(new URL(w.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return { c, n };
}

async function change(server: string, notify: boolean): Promise<void> {
  const client = await w.host.sessions.client(server);
  const r = await client.callTool({ name: 'change', arguments: { notify } });
  expect(r.isError).not.toBe(true);
}

const SkillsList = z.looseObject({ skills: z.array(z.looseObject({ uri: z.string() })) });

it('a skills change on a server reaches the clients that see it, by its notification and by a listing that finds it', async () => {
  const legacy = await legacyWatcher(notesToken);
  const modern = await modernWatcher(notesToken);
  const bystander = await legacyWatcher(otherToken);
  // The clients list the skills they are served (the core lists the servers: the baseline a change is found against).
  expect((await legacy.c.request({ method: 'skills/list', params: {} }, SkillsList)).skills.map((s) => s.uri)).toEqual([
    `switchboard://notes/${URI}`,
  ]);
  await bystander.c.request({ method: 'skills/list', params: {} }, SkillsList);

  // 1. The server announces the change.
  await change('notes', true);
  await until(() => legacy.n.skills === 1 && legacy.n.resources === 1, 20_000, 'the legacy session told');
  await until(() => modern.n.resources >= 1, 20_000, 'the modern client told');
  // The changed skill is no longer approved for its new manifest, so it is not served until approved again.
  expect((await legacy.c.request({ method: 'skills/list', params: {} }, SkillsList)).skills).toEqual([]);

  // A change on the other server reaches its client; the notes client hears nothing of it (checked by the next
  // notes change arriving as its second, on the same stream).
  await change('other', true);
  await until(() => bystander.n.skills === 1, 20_000, 'the other client told');
  expect(bystander.n.resources).toBe(1);

  // 2. No notification: the change is found when the core lists the server again (the person's Skills tab).
  await change('notes', false);
  const listed = await w.host.skills.list('notes');
  expect(listed.skills.map((s) => s.uri)).toEqual([URI]);
  await until(() => legacy.n.skills === 2, 20_000, 'the legacy session told of the listing');
  expect(legacy.n.resources).toBe(2);
  // The bystander saw only its own server's change.
  expect(bystander.n.skills).toBe(1);

  // 3. Approving the changed skill serves it again: the clients are told once more.
  await w.host.skills.approve('notes', URI);
  await until(() => legacy.n.skills === 3, 20_000, 'the legacy session told of the approval');
  expect((await legacy.c.request({ method: 'skills/list', params: {} }, SkillsList)).skills.map((s) => s.uri)).toEqual([
    `switchboard://notes/${URI}`,
  ]);
  await modern.c.close();
}, 120_000);
