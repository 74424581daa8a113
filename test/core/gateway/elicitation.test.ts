// A server's elicitation during a gateway call: forwarded to the gateway client when it declared elicitation
// (MRTR rounds of a 2026-07-28 server and elicitation/create of a 2025-11-25 server alike, the requested schema
// unchanged), and shown in Switchboard's own dialog when it did not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import { GatewayWorld, textOf, until } from './harness.js';

let w: GatewayWorld;
let token = '';
const dialogs: EventMap['elicitation.requested'][] = [];

beforeAll(async () => {
  w = new GatewayWorld();
  // The same fixture twice: a 2026-07-28 session (MRTR rounds) and a 2025-11-25 one (elicitation/create).
  await w.addServer('modern', 'res-server.ts', { elicitation: true });
  await w.addServer('legacy', 'res-server.ts', { elicitation: true, lifecycle: 'initialize' });
  await w.enable();
  ({ token } = await w.client('asker', { mode: 'all', writes: 'allow' }));
  w.host.events.subscribe((event, payload) => {
    if (event === 'elicitation.requested') dialogs.push(payload as EventMap['elicitation.requested']);
  });
}, 120_000);
afterAll(async () => w?.close());

describe.each(['modern', 'legacy'] as const)('a gateway client on %s that declared elicitation', (era) => {
  it('answers an MRTR round of a 2026-07-28 server', async () => {
    const asked: unknown[] = [];
    const c = await w.http(token, era, { elicitation: { form: {} } }, (client) =>
      client.setRequestHandler('elicitation/create', async (req) => {
        asked.push(req.params);
        return { action: 'accept', content: { answer: `yes-${era}` } };
      }),
    );
    const before = dialogs.length;
    const result = await c.callTool({ name: 'mcp__modern__ask_mrtr', arguments: {} });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: 'Confirm the MRTR round' });
    expect(JSON.parse(textOf(result))).toMatchObject({ round: 'mrtr', response: { action: 'accept', content: { answer: `yes-${era}` } } });
    expect(dialogs.length).toBe(before);
  });

  it("answers a 2025-11-25 server's elicitation/create, with the schema's defaults and enums as sent", async () => {
    const asked: { requestedSchema?: { properties?: Record<string, Record<string, unknown>> } }[] = [];
    const c = await w.http(token, era, { elicitation: { form: {} } }, (client) =>
      client.setRequestHandler('elicitation/create', async (req) => {
        asked.push(req.params as never);
        return { action: 'accept', content: { nickname: 'robin', age: 41 } };
      }),
    );
    const result = await c.callTool({ name: 'mcp__legacy__ask_defaults', arguments: {} });
    expect(asked).toHaveLength(1);
    const props = asked[0]!.requestedSchema!.properties!;
    expect(props['nickname']).toMatchObject({ type: 'string', default: 'sparrow' });
    expect(props['age']).toMatchObject({ type: 'integer', default: 30 });
    expect(props['color']).toMatchObject({ enum: ['red', 'green', 'blue'], default: 'green' });
    expect(JSON.parse(textOf(result))).toMatchObject({ action: 'accept', content: { nickname: 'robin', age: 41 } });
  });
});

describe('a gateway client that did not declare elicitation', () => {
  it("gets Switchboard's own dialog instead; the person's answer goes to the server", async () => {
    const c = await w.http(token, 'modern');
    const before = dialogs.length;
    const call = c.callTool({ name: 'mcp__legacy__ask_plain', arguments: {} });
    await until(() => dialogs.length > before, 20_000, 'the dialog');
    const request = dialogs.at(-1)!.request;
    expect(request).toMatchObject({ serverId: 'legacy', message: 'What is the answer?' });
    await w.host.interaction.elicitation.respond(request.requestId, 'accept', { answer: '42' });
    const result = await call;
    expect(JSON.parse(textOf(result))).toMatchObject({ action: 'accept', content: { answer: '42' } });
  });
});
