// The elicitation broker on its own: headless-deny, opt-in, timeout, queueing, URL consent and validation.
import { describe, expect, it } from 'vitest';
import { ElicitationBroker, type ElicitParams } from '../../../electron/core/elicitation/elicitation-broker.js';
import { PrintingUrlOpener } from '../../../electron/core/elicitation/url-opener.js';
import { EventBus } from '../../../electron/core/event-bus.js';
import { Presence } from '../../../electron/core/presence.js';
import type { EventKey, EventMap } from '../../../shared/contract.js';

function setup(opts: { ui?: boolean; enabled?: boolean; timeoutMs?: number } = {}) {
  const events = new EventBus();
  const seen: { event: EventKey; payload: EventMap[EventKey] }[] = [];
  const presence = new Presence();
  if (opts.ui !== false) {
    events.subscribe((event, payload) => seen.push({ event, payload }));
    presence.set('window', 'visible');
  }
  const lines: string[] = [];
  const opener = new PrintingUrlOpener((l) => lines.push(l));
  const broker = new ElicitationBroker({
    events,
    presence,
    enabled: () => opts.enabled ?? true,
    serverName: () => 'Demo \u202Eserver',
    timeoutMs: () => opts.timeoutMs ?? 60_000,
    opener: () => opener,
  });
  return { broker, seen, opener, lines, presence };
}

const form: ElicitParams = {
  mode: 'form',
  message: 'Name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'] },
};

describe('elicitation broker', () => {
  it('declines at once when no UI is attached (headless with no browser), never hangs', async () => {
    const { broker } = setup({ ui: false });
    await expect(broker.request('s', form)).resolves.toEqual({ action: 'decline' });
    expect(broker.pending()).toEqual([]);
  });

  it('declines when the server is not opted in', async () => {
    const { broker, seen } = setup({ enabled: false });
    await expect(broker.request('s', form)).resolves.toEqual({ action: 'decline' });
    expect(seen).toEqual([]);
  });

  it('queues requests in order, names the server (sanitized) and counts the queue', async () => {
    const { broker, seen } = setup();
    const a = broker.request('s', form);
    const b = broker.request('s', { ...form, message: 'Second' });
    expect(broker.pending().map((p) => p.message)).toEqual(['Name?', 'Second']);
    expect(seen.map((e) => (e.payload as EventMap['elicitation.requested']).queueLength)).toEqual([1, 2]);
    expect(broker.pending()[0]?.serverName).toBe('Demo server');
    const [first, second] = broker.pending();
    await expect(broker.respond(first!.requestId, 'accept', { name: 'x' })).rejects.toMatchObject({ code: 'invalid_request' });
    await broker.respond(first!.requestId, 'accept', { name: 'Ada', extra: 'dropped' });
    await broker.respond(second!.requestId, 'decline');
    await expect(a).resolves.toEqual({ action: 'accept', content: { name: 'Ada' } });
    await expect(b).resolves.toEqual({ action: 'decline' });
    await expect(broker.respond(first!.requestId, 'accept', { name: 'Ada' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('cancels after the timeout and reports it', async () => {
    const { broker, seen } = setup({ timeoutMs: 50 });
    await expect(broker.request('s', form)).resolves.toEqual({ action: 'cancel' });
    expect(seen.at(-1)).toMatchObject({ event: 'elicitation.cancelled', payload: { reason: 'No answer within 0 s', queueLength: 0 } });
  });

  it('cancels when the server withdraws the request or its session closes', async () => {
    const { broker } = setup();
    const ctl = new AbortController();
    const withdrawn = broker.request('s', form, ctl.signal);
    const closed = broker.request('t', form);
    ctl.abort();
    broker.cancelServer('t', 'closed');
    await expect(withdrawn).resolves.toEqual({ action: 'cancel' });
    await expect(closed).resolves.toEqual({ action: 'cancel' });
  });

  it('URL mode: warnings for punycode (shown decoded); opens exactly the URL only on accept; plain http only to this machine', async () => {
    const { broker, opener, lines } = setup();
    await expect(broker.request('s', { mode: 'url', message: 'x', url: 'http://example.com/login', elicitationId: 'e0' })).resolves.toEqual(
      {
        action: 'decline',
      },
    );
    const url = 'https://xn--pple-43d.com/login?next=%2Fhome#frag';
    const pending = broker.request('s', { mode: 'url', message: 'Sign in', url, elicitationId: 'e1' });
    const view = broker.pending()[0]!;
    expect(view).toMatchObject({ mode: 'url', url, urlHost: 'аpple.com', urlDisplay: 'https://аpple.com/login?next=%2Fhome#frag' });
    expect(view.urlWarnings).toHaveLength(1);
    expect(opener.opened).toEqual([]);
    await broker.respond(view.requestId, 'accept');
    await expect(pending).resolves.toEqual({ action: 'accept' });
    expect(opener.opened).toEqual([url]);
    expect(lines).toEqual([`opened: ${url}\n`]);
  });

  it('URL mode: a declined URL is never opened; a non-http URL is declined outright; complete closes the dialog', async () => {
    const { broker, opener } = setup();
    await expect(broker.request('s', { mode: 'url', message: 'x', url: 'javascript:alert(1)', elicitationId: 'e0' })).resolves.toEqual({
      action: 'decline',
    });
    const p = broker.request('s', { mode: 'url', message: 'x', url: 'https://example.com/a', elicitationId: 'e2' });
    broker.complete('s', 'e2');
    await expect(p).resolves.toEqual({ action: 'cancel' });
    const q = broker.request('s', { mode: 'url', message: 'x', url: 'https://example.com/b', elicitationId: 'e3' });
    await broker.respond(broker.pending()[0]!.requestId, 'decline');
    await expect(q).resolves.toEqual({ action: 'decline' });
    expect(opener.opened).toEqual([]);
  });
});
