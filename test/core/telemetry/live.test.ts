// Settings → Tracing applies while the core runs: turning it on sends the next call's spans, moving the endpoint
// sends them to the new receiver (the old one gets what ended before), turning it off sends nothing more. A real core
// with the echo fixture on stdio, real OTLP/HTTP receivers on loopback.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallOutcome } from '../../../shared/domains/calls.js';
import type { TelemetryState } from '../../../shared/domains/app.js';
import { createDispatcher, type Dispatch } from '../../../electron/core/dispatcher.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import type { Host } from '../../../electron/core/host.js';
import { LiveTelemetry } from '../../../electron/core/telemetry/live.js';
import { NO_TELEMETRY } from '../../../electron/core/telemetry/telemetry.js';
import { startTelemetry } from '../../../electron/core/telemetry/start.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { call, cleanup, confSettingsStore, tempDir, testCore } from '../../shared/support/harness.js';
import { addApproved, fixture, REPO_ROOT } from '../sessions/helpers.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

describe('tracing switched while the core runs', () => {
  let a: OtlpReceiver;
  let b: OtlpReceiver;
  let dir: string;
  let host: Host | undefined;
  let dispatch: Dispatch;

  beforeEach(async () => {
    [a, b] = await Promise.all([startOtlpReceiver(), startOtlpReceiver()]);
    dir = tempDir('sb-otlp-live-');
    host = testCore({ settingsStore: confSettingsStore(dir), credentials: new MemoryCredentialStore(), otlpDelayMs: 50 });
    dispatch = createDispatcher(createHandlers(host));
    await addApproved(host, {
      id: 'echo',
      name: 'echo',
      transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', fixture('echo-stdio.ts')], cwd: REPO_ROOT },
      startup: 'manual',
    });
    await call(dispatch, 'servers.connect', { id: 'echo' });
    await call(dispatch, 'catalog.refresh', { id: 'echo' });
  });
  afterEach(async () => {
    await host?.shutdown();
    await Promise.all([a.close(), b.close()]);
    cleanup(dir);
  });

  const echo = async (text: string): Promise<string> => {
    const outcome = await call<CallOutcome>(dispatch, 'tools.call', { name: 'mcp__echo__echo', arguments: { text } });
    expect(outcome.status).toBe('ok');
    return outcome.callId;
  };
  const callSpans = (r: OtlpReceiver): string[] =>
    r.spans.filter((s) => s.name === 'call echo').map((s) => String(s.attributes['switchboard.call.id']));

  it('turns on, moves to another endpoint and turns off without a restart', async () => {
    const before = await echo('before');
    const on = await call<TelemetryState>(dispatch, 'app.setTelemetry', { endpoint: a.endpoint, enabled: true });
    expect(on).toMatchObject({ endpoint: a.endpoint, enabled: true, active: true, restartNeeded: false });
    // Calls follow the switch at once; a server's own round trips are traced from its next connect on.
    await call(dispatch, 'servers.restart', { id: 'echo' });
    const toA = await echo('to a');
    // The reconnected transport keeps following the switch: moved to b, its round trips go to b.
    const moved = await call<TelemetryState>(dispatch, 'app.setTelemetry', { endpoint: b.endpoint, enabled: true });
    expect(moved).toMatchObject({ endpoint: b.endpoint, active: true, restartNeeded: false });
    const toB = await echo('to b');
    const off = await call<TelemetryState>(dispatch, 'app.setTelemetry', { endpoint: b.endpoint, enabled: false });
    expect(off).toMatchObject({ enabled: false, active: false, restartNeeded: false });
    const after = await echo('after');
    await host!.shutdown();
    host = undefined;

    expect(callSpans(a)).toEqual([toA]);
    expect(callSpans(b)).toEqual([toB]);
    expect([...callSpans(a), ...callSpans(b)]).not.toContain(before);
    expect([...callSpans(a), ...callSpans(b)]).not.toContain(after);
    expect(a.spans.some((s) => s.name === 'tools/call echo')).toBe(true);
    expect(b.spans.some((s) => s.name === 'tools/call echo')).toBe(true);
  }, 60_000);
});

describe('LiveTelemetry', () => {
  it('delegates to the tracer it holds and flushes the one it replaces', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const live = new LiveTelemetry();
      expect(live.enabled).toBe(false);
      await live.run('unsent', 'internal', {}, async () => undefined);
      const tracer = startTelemetry({
        endpoint: receiver.endpoint,
        version: '1',
        mode: 'headless',
        log: () => undefined,
        notify: () => undefined,
      });
      await live.replace(tracer);
      expect(live.enabled).toBe(true);
      await live.run('sent', 'internal', {}, async () => undefined);
      // Replacing flushes the old tracer: its span has arrived when replace resolves.
      await live.replace(NO_TELEMETRY);
      expect(receiver.spans.map((s) => s.name)).toEqual(['sent']);
      expect(live.enabled).toBe(false);
      await live.shutdown();
    } finally {
      await receiver.close();
    }
  });
});
