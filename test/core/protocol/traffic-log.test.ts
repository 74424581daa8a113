// The traffic log on its own: bounded ring and payload, pairing, batching, redaction by name and by value.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { EventBus } from '../../../electron/core/event-bus.js';
import { redactValue } from '../../../electron/core/protocol/redact.js';
import {
  EVENT_NOTIFICATIONS_PER_SERVER,
  PAYLOAD_CHARS,
  TRAFFIC_BATCH_MS,
  TRAFFIC_PER_SERVER,
  TrafficLog,
} from '../../../electron/core/protocol/traffic-log.js';
import type { EventMap } from '../../../shared/contract.js';

function makeLog(secrets: string[] = []) {
  const events = new EventBus();
  const pushed: EventMap['protocol.traffic'][] = [];
  events.subscribe((event, payload) => {
    if (event === 'protocol.traffic') pushed.push(payload as EventMap['protocol.traffic']);
  });
  let t = 1000;
  const log = new TrafficLog({ events, secretValues: async () => secrets, now: () => (t += 5) });
  return { log, pushed };
}

const msg = (m: Record<string, unknown>): JSONRPCMessage => ({ jsonrpc: '2.0', ...m }) as unknown as JSONRPCMessage;

describe('traffic log', () => {
  it('keeps the newest messages per server and cuts long payloads', () => {
    const { log } = makeLog();
    for (let i = 0; i < TRAFFIC_PER_SERVER + 20; i++) log.record('a', 'out', msg({ method: 'notifications/x', params: { i } }));
    log.record('a', 'in', msg({ id: 1, result: { text: 'x'.repeat(PAYLOAD_CHARS * 2) } }));
    const { entries, total } = log.entries({ serverId: 'a' });
    expect(total).toBe(TRAFFIC_PER_SERVER);
    expect(entries[0]!.seq).toBe(22);
    const big = entries.at(-1)!;
    expect(big.truncated).toBe(true);
    expect(big.payload.length).toBe(PAYLOAD_CHARS);
    expect(big.bytes).toBeGreaterThan(PAYLOAD_CHARS * 2);
  });

  it('event notifications keep to their share of the ring: a push flood does not push out requests and responses', () => {
    const { log } = makeLog();
    log.record('a', 'out', msg({ id: 1, method: 'tools/list' }));
    log.record('a', 'in', msg({ id: 1, result: { tools: [] } }));
    for (let i = 0; i < TRAFFIC_PER_SERVER * 3; i++) log.record('a', 'in', msg({ method: 'notifications/events/event', params: { i } }));
    log.record('a', 'in', msg({ method: 'notifications/message', params: { level: 'info' } }));
    const { entries, total } = log.entries({ serverId: 'a' });
    expect(EVENT_NOTIFICATIONS_PER_SERVER).toBeLessThan(TRAFFIC_PER_SERVER);
    const events = entries.filter((e) => e.method === 'notifications/events/event');
    expect(events).toHaveLength(EVENT_NOTIFICATIONS_PER_SERVER);
    // The newest events are the ones kept, in order.
    expect(events.at(-1)!.payload).toContain(`"i": ${TRAFFIC_PER_SERVER * 3 - 1}`);
    expect(events[0]!.payload).toContain(`"i": ${TRAFFIC_PER_SERVER * 3 - EVENT_NOTIFICATIONS_PER_SERVER}`);
    expect(entries.map((e) => e.method).filter((m) => m !== 'notifications/events/event')).toEqual([
      'tools/list',
      'tools/list',
      'notifications/message',
    ]);
    expect(total).toBe(EVENT_NOTIFICATIONS_PER_SERVER + 3);
  });

  it('previews an 8 MiB message from its first part only: exact size, a secret cut at the edge still redacted', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const { log } = makeLog([secret]);
    await log.prepare('a');
    // The secret starts a few characters before the kept part of the string ends.
    const text = `${'x'.repeat(PAYLOAD_CHARS - 40)}${secret}${'y'.repeat(8 * 1024 * 1024)}`;
    const message = msg({ id: 2, result: { content: [{ type: 'text', text }], items: Array.from({ length: 5000 }, (_, i) => i) } });
    log.record('a', 'in', message);
    const [entry] = log.entries({ serverId: 'a' }).entries;
    expect(entry!.bytes).toBe(Buffer.byteLength(JSON.stringify(message), 'utf8'));
    expect(entry!.truncated).toBe(true);
    expect(entry!.payload.length).toBeLessThanOrEqual(PAYLOAD_CHARS);
    expect(entry!.payload).not.toContain('sk-live');
    expect(entry!.payload).toContain('xxxx');
  });

  it('says a payload is cut when only a long array was shortened (a message previewed when recorded)', () => {
    const { log } = makeLog();
    // Over the size kept whole (so previewed when recorded), yet short once its array is cut to the preview's items.
    log.record('a', 'in', msg({ id: 3, result: { items: Array.from({ length: 10_000 }, () => 7) } }));
    const [entry] = log.entries({ serverId: 'a' }).entries;
    expect(entry!.payload.length).toBeLessThan(PAYLOAD_CHARS);
    expect(entry!.truncated).toBe(true);
  });

  it('under a flood, sends only what is still in the ring, its payload made when sent', () => {
    const { log, pushed } = makeLog();
    for (let i = 0; i < TRAFFIC_PER_SERVER * 4; i++) log.record('a', 'in', msg({ method: 'notifications/x', params: { i } }));
    log.flush();
    expect(pushed).toHaveLength(1);
    const sent = pushed[0]!.entries;
    expect(sent).toHaveLength(TRAFFIC_PER_SERVER);
    expect(sent[0]!.seq).toBe(TRAFFIC_PER_SERVER * 3 + 1);
    expect(JSON.parse(sent.at(-1)!.payload)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/x',
      params: { i: TRAFFIC_PER_SERVER * 4 - 1 },
    });
  });

  it('pairs responses with their requests in both directions and batches events', () => {
    vi.useFakeTimers();
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const { log, pushed } = makeLog();
    log.record('a', 'out', msg({ id: 7, method: 'tools/call', params: {} }));
    log.record('a', 'in', msg({ id: 'srv-1', method: 'roots/list' }));
    log.record('a', 'out', msg({ id: 'srv-1', result: { roots: [] } }));
    log.record('a', 'in', msg({ id: 7, error: { code: -32601, message: 'nope' } }));
    const [, , rootsAnswer, callError] = log.entries().entries;
    expect(rootsAnswer).toMatchObject({ kind: 'response', direction: 'out', method: 'roots/list', durationMs: 5 });
    expect(callError).toMatchObject({ kind: 'error', direction: 'in', method: 'tools/call', durationMs: 15, id: '7' });
    expect(pushed).toEqual([]);
    vi.advanceTimersByTime(TRAFFIC_BATCH_MS - 1);
    expect(pushed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(pushed).toHaveLength(1);
    expect(pushed[0]!.entries).toHaveLength(4);
  });

  it('redacts known secret values and secret-named fields, and strips bidi controls', async () => {
    const { log } = makeLog(['s3cr3t-value']);
    await log.prepare('a');
    log.record(
      'a',
      'in',
      msg({
        id: 1,
        result: {
          text: 'token=s3cr3t-value; Authorization: Bearer abcdefghijk \u202Eevil',
          access_token: 'xyz',
          nested: { password: 'p' },
        },
      }),
    );
    const payload = log.entries().entries[0]!.payload;
    expect(payload).not.toContain('s3cr3t-value');
    expect(payload).not.toContain('abcdefghijk');
    expect(payload).not.toContain('xyz');
    expect(payload).not.toContain('\u202E');
    expect(JSON.parse(payload)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        text: 'token=[redacted]; Authorization: Bearer [redacted] evil',
        access_token: '[redacted]',
        nested: { password: '[redacted]' },
      },
    });
  });

  it('bounds the depth it walks', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200; i++) deep = { d: deep };
    expect(JSON.stringify(redactValue(deep, []))).toContain('[too deep]');
  });
});
