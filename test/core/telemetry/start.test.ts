// Tracing's start: off without an endpoint, a bad endpoint refused by a notice (never silently), the traces URL
// built from a base or a full address, and a collector that cannot be reached reported once.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { AppNotice } from '../../../shared/contract.js';
import { tracesUrl } from '../../../electron/core/telemetry/otlp.js';
import { startTelemetry, TELEMETRY_NOTICE } from '../../../electron/core/telemetry/start.js';
import { NO_TELEMETRY } from '../../../electron/core/telemetry/telemetry.js';
import { startOtlpReceiver } from './otlp-receiver.js';

function start(endpoint: string | undefined) {
  const notices: AppNotice[] = [];
  const logs: string[] = [];
  const telemetry = startTelemetry({
    endpoint,
    version: '1.2.3',
    mode: 'headless',
    scheduledDelayMs: 10,
    log: (_level, text) => logs.push(text),
    notify: (n) => notices.push(n),
  });
  return { telemetry, notices, logs };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('starting tracing', () => {
  it('is off without an endpoint', () => {
    const { telemetry, notices } = start(undefined);
    expect(telemetry).toBe(NO_TELEMETRY);
    expect(telemetry.enabled).toBe(false);
    expect(notices).toEqual([]);
  });

  it.each([
    ['ftp://127.0.0.1:4318', /http or https/],
    ['http://user:pw@127.0.0.1:4318', /user name or password/],
    ['http://127.0.0.1:4318/?token=abc', /query or fragment/],
    ['not a url', /not a URL/],
  ])('refuses %s with a notice that does not repeat the address', (endpoint, why) => {
    const { telemetry, notices } = start(endpoint);
    expect(telemetry.enabled).toBe(false);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.id).toBe(TELEMETRY_NOTICE);
    expect(notices[0]!.message).toMatch(why);
    expect(notices[0]!.message).not.toContain('pw@');
    expect(notices[0]!.message).not.toContain('abc');
  });

  it('sends to /v1/traces of a base URL, and to a full traces URL as given', () => {
    expect(tracesUrl('http://127.0.0.1:4318')).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracesUrl('http://127.0.0.1:4318/collector/')).toBe('http://127.0.0.1:4318/collector/v1/traces');
    expect(tracesUrl('https://otel.example/v1/traces')).toBe('https://otel.example/v1/traces');
  });

  it('sends a span to a receiver with the service named', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const { telemetry } = start(receiver.endpoint);
      await telemetry.run('work', 'internal', { 'switchboard.server.id': 'x' }, async () => undefined);
      await telemetry.shutdown();
      expect(receiver.spans.map((s) => [s.name, s.service, s.attributes['switchboard.server.id']])).toEqual([['work', 'switchboard', 'x']]);
    } finally {
      await receiver.close();
    }
  });

  it('sends spans started and ended while OpenTelemetry was still loading, with their parent and times', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const { telemetry } = start(receiver.endpoint);
      const before = BigInt(Date.now() - 1) * 1_000_000n;
      const parent = telemetry.start('early', 'client', { 'switchboard.server.id': 'x' });
      const child = telemetry.start('early child', 'internal', {}, parent);
      child.set({ 'switchboard.step': 'one' });
      child.fail('timeout');
      child.end();
      parent.end();
      const endedBy = BigInt(Date.now() + 1) * 1_000_000n;
      await telemetry.shutdown();
      const early = receiver.spans.find((s) => s.name === 'early');
      const late = receiver.spans.find((s) => s.name === 'early child');
      expect(early?.attributes['switchboard.server.id']).toBe('x');
      expect(late?.parentSpanId).toBe(early?.spanId);
      expect(late?.attributes['switchboard.step']).toBe('one');
      expect(late?.attributes['error.type']).toBe('timeout');
      // Timed when they happened, not when the tracer was there to take them.
      expect(early!.startNano).toBeGreaterThanOrEqual(before);
      expect(late!.startNano).toBeGreaterThanOrEqual(early!.startNano);
      expect(late!.endNano).toBeLessThanOrEqual(early!.endNano);
      expect(early!.endNano).toBeLessThanOrEqual(endedBy);
    } finally {
      await receiver.close();
    }
  });

  it('reports a collector it cannot reach, once', async () => {
    const { telemetry, notices } = start(`http://127.0.0.1:${await closedPort()}`);
    await telemetry.run('one', 'internal', {}, async () => undefined);
    await telemetry.shutdown();
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toMatch(/could not be sent/);
  }, 30_000);
});
