// A legacy server whose tools ask the client for sampling, roots or a question whatever it advertised: with the
// settings off each call says which setting turns the feature on (instead of the raw -32601 the server relays);
// with them on, the request is answered by hand (sampling), from the shared folders (roots) or by the person, and
// the person's "don't allow" for questions is remembered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, fixture, makeSessionHost, stdioServer, until, type SessionHarness } from '../sessions/helpers.js';

let dir: string;
let h: SessionHarness;

beforeAll(async () => {
  dir = tempDir('sb-asks-');
  h = makeSessionHost(dir);
  await addApproved(h.host, stdioServer('off', fixture('asks-client.ts'), { lifecycle: 'initialize' }));
  await addApproved(
    h.host,
    stdioServer('on', fixture('asks-client.ts'), { lifecycle: 'initialize', sampling: true, roots: true, elicitation: true }),
  );
  await h.host.catalog.refresh();
}, 60_000);

afterAll(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

const call = (name: string) => h.host.calls.call({ name, arguments: {} });

describe('with the settings off', () => {
  it.each([
    ['mcp__off__ask_sampling', "Turn on 'Answer sampling requests'"],
    ['mcp__off__ask_roots', "Turn on 'Share folders (roots)'"],
    ['mcp__off__ask_question', "Turn on 'Let the server ask questions'"],
  ])(
    '%s says which setting to turn on',
    async (name, setting) => {
      const outcome = await call(name);
      expect(outcome.status).toBe('error');
      expect(outcome.error?.code).toBe('feature_not_enabled');
      expect(outcome.error?.message).toContain(setting);
      expect(outcome.presentation.notices[0]).toContain(setting);
    },
    30_000,
  );

  it('advertises none of them (only the MCP Apps extension this host always renders)', () => {
    const init = h.host.clientFeatures.traffic.entries({ serverId: 'off', method: 'initialize', direction: 'out' }).entries[0]!;
    const caps = (JSON.parse(init.payload) as { params: { capabilities: Record<string, unknown> } }).params.capabilities;
    expect(Object.keys(caps)).toEqual(['extensions']);
    expect(Object.keys(caps['extensions'] as object)).toEqual(['io.modelcontextprotocol/ui']);
  });
});

describe('with the settings on', () => {
  it('advertises sampling and roots', () => {
    const init = h.host.clientFeatures.traffic.entries({ serverId: 'on', method: 'initialize', direction: 'out' }).entries[0]!;
    const caps = (JSON.parse(init.payload) as { params: { capabilities: Record<string, unknown> } }).params.capabilities;
    expect(caps).toMatchObject({ sampling: {}, roots: { listChanged: true }, elicitation: { form: {} } });
    expect(caps.tasks).toBeUndefined();
  });

  it('roots come from the shared folders', async () => {
    await h.host.clientFeatures.setRoots('on', [{ path: dir, name: 'Work' }]);
    const outcome = await call('mcp__on__ask_roots');
    expect(outcome.presentation.text).toBe(`client answered: {"roots":[{"uri":"file://${dir}","name":"Work"}]}`);
  }, 30_000);

  it('sampling waits for the person and sends their reply', async () => {
    const seen = () => h.events.filter((e) => e.event === 'sampling.requested').length;
    const before = seen();
    const pending = call('mcp__on__ask_sampling');
    await until(() => seen() > before, 10_000, 'sampling request');
    const req = (h.events.filter((e) => e.event === 'sampling.requested').at(-1)!.payload as EventMap['sampling.requested']).request;
    expect(req.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Write a haiku' }] }]);
    h.host.clientFeatures.sampling.respond(req.requestId, 'accept', { text: 'Old pond, a frog jumps' });
    const outcome = await pending;
    expect(outcome.presentation.text).toContain('"text":"Old pond, a frog jumps"');
  }, 30_000);

  it('a first question asks for consent; "don\'t allow" declines it and later ones', async () => {
    const requested = () => h.events.filter((e) => e.event === 'elicitation.requested');
    const before = requested().length;
    const pending = call('mcp__on__ask_question');
    await until(() => requested().length > before, 10_000, 'elicitation');
    const req = (requested().at(-1)!.payload as EventMap['elicitation.requested']).request;
    expect(req.consent).toBe('ask');
    const view = h.host.clientFeatures.setConsent('on', 'deny');
    expect(view.elicitationConsent).toBe('deny');
    expect((await pending).presentation.text).toBe('client answered: {"action":"decline"}');
    // Later questions are declined without asking; the call says how to change it.
    const again = await call('mcp__on__ask_question');
    expect(again.presentation.text).toBe('client answered: {"action":"decline"}');
    expect(requested().length).toBe(before + 1);
    h.host.clientFeatures.setConsent('on', 'allow');
    const third = call('mcp__on__ask_question');
    await until(() => requested().length > before + 1, 10_000, 'elicitation');
    const allowed = (requested().at(-1)!.payload as EventMap['elicitation.requested']).request;
    expect(allowed.consent).toBe('allow');
    await h.host.interaction.elicitation.respond(allowed.requestId, 'accept', { name: 'Ada' });
    expect((await third).presentation.text).toBe('client answered: {"action":"accept","content":{"name":"Ada"}}');
  }, 30_000);
});
