// The OTLP tracing setting through the contract: saved to the settings file, refused with config_invalid when the
// endpoint is not http(s), kept when turned off, applied at once to the running core (and by the next core), except
// that the command line's --otlp wins over it for its run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TelemetryState } from '../../../shared/domains/app.js';
import { call, cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';

const dirs: string[] = [];
const hosts: HostHarness[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.host.shutdown();
  for (const d of dirs.splice(0)) cleanup(d);
});

function open(dir: string, ports: Parameters<typeof makeHost>[1] = {}): HostHarness {
  const h = makeHost(dir, ports);
  hosts.push(h);
  return h;
}

/** The tracing part of the settings file as written (undefined when the file or the part is absent). */
function saved(dir: string): unknown {
  const file = join(dir, 'config.json');
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { telemetry?: unknown }).telemetry;
}

describe('app.setTelemetry', () => {
  it('saves the endpoint, applies it to the running core at once, and the next core traces to it too', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const h = open(dir);
    expect(await call(h.dispatch, 'app.telemetry', {})).toEqual({
      endpoint: null,
      enabled: false,
      active: false,
      overridden: false,
      restartNeeded: false,
    } satisfies TelemetryState);
    const state = await call<TelemetryState>(h.dispatch, 'app.setTelemetry', { endpoint: ' http://127.0.0.1:4318 ', enabled: true });
    expect(state).toEqual({ endpoint: 'http://127.0.0.1:4318', enabled: true, active: true, overridden: false, restartNeeded: false });
    expect(saved(dir)).toEqual({ otlpEndpoint: 'http://127.0.0.1:4318' });
    await h.host.shutdown();
    hosts.splice(0);

    const next = open(dir);
    expect(await call(next.dispatch, 'app.telemetry', {})).toEqual(state);
  });

  it('keeps the endpoint when turned off, and an off endpoint does not trace at the next start', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const h = open(dir);
    await call(h.dispatch, 'app.setTelemetry', { endpoint: 'https://collector.example:4318/v1/traces', enabled: false });
    expect(saved(dir)).toEqual({ otlpEndpoint: 'https://collector.example:4318/v1/traces', enabled: false });
    const state = await call<TelemetryState>(h.dispatch, 'app.telemetry', {});
    expect(state).toMatchObject({ enabled: false, active: false, restartNeeded: false });
    await h.host.shutdown();
    hosts.splice(0);
    expect(await call(open(dir).dispatch, 'app.telemetry', {})).toMatchObject({ enabled: false, active: false });
  });

  it('clears the setting with a null endpoint', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const h = open(dir);
    await call(h.dispatch, 'app.setTelemetry', { endpoint: 'http://127.0.0.1:4318', enabled: true });
    const state = await call<TelemetryState>(h.dispatch, 'app.setTelemetry', { endpoint: null, enabled: false });
    expect(state).toMatchObject({ endpoint: null, enabled: false, restartNeeded: false });
    expect(saved(dir)).toBeUndefined();
  });

  it.each([
    ['ftp://127.0.0.1:4318', /must be http or https, not ftp/],
    ['file:///tmp/traces', /must be http or https, not file/],
    ['not a url', /not a URL/],
    ['http://user:pw@127.0.0.1:4318', /user name or password/],
  ])('refuses %s with config_invalid and keeps the saved setting', async (endpoint, message) => {
    const dir = tempDir();
    dirs.push(dir);
    const h = open(dir);
    await call(h.dispatch, 'app.setTelemetry', { endpoint: 'http://127.0.0.1:4318', enabled: true });
    const env = await h.dispatch('app.setTelemetry', { endpoint, enabled: true });
    expect(env.ok).toBe(false);
    expect(!env.ok && env.error.code).toBe('config_invalid');
    expect(!env.ok && env.error.message).toMatch(message);
    // The refusal names the problem, not the value (a pasted URL may carry a secret).
    expect(!env.ok && env.error.message).not.toContain('pw');
    expect(saved(dir)).toEqual({ otlpEndpoint: 'http://127.0.0.1:4318' });
  });

  it('refuses turning traces on without an endpoint', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const env = await open(dir).dispatch('app.setTelemetry', { endpoint: '  ', enabled: true });
    expect(!env.ok && env.error.code).toBe('config_invalid');
    expect(!env.ok && env.error.message).toMatch(/Enter an OTLP endpoint/);
  });

  it('refuses a malformed argument with invalid_request', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const env = await open(dir).dispatch('app.setTelemetry', { endpoint: 'http://127.0.0.1:4318' });
    expect(!env.ok && env.error.code).toBe('invalid_request');
  });

  it('says when the command line chose the endpoint for this run', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const h = open(dir, { ports: { otlpEndpoint: 'http://127.0.0.1:4319' } });
    const state = await call<TelemetryState>(h.dispatch, 'app.setTelemetry', { endpoint: 'http://127.0.0.1:4318', enabled: true });
    expect(state).toMatchObject({ active: true, overridden: true, restartNeeded: false });
  });
});
