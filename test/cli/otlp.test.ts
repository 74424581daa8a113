// `switchboard … --otlp URL`: the built bin sends the run's traces to an OTLP/HTTP receiver on loopback before it
// exits: the connect, the call with its round trip, in one trace per call; a bad URL is a usage error.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../electron/cli/exit-codes.js';
import { ATTR } from '../../electron/core/telemetry/attributes.js';
import { cleanup, tempDir } from '../shared/support/harness.js';
import { startOtlpReceiver, type OtlpReceiver } from '../core/telemetry/otlp-receiver.js';
import { buildCli, processesWith, runCli, stopAll, writeConfig } from './cli-harness.js';

let dir: string | undefined;
let marker = '';
let receiver: OtlpReceiver | undefined;

beforeAll(() => buildCli(), 120_000);
afterEach(async () => {
  await stopAll();
  expect(processesWith(marker)).toEqual([]);
  await receiver?.close();
  receiver = undefined;
  if (dir !== undefined) cleanup(dir);
  dir = undefined;
});

describe('switchboard --otlp', () => {
  it('sends the call as one trace with its round trip, and the connect, before exiting', async () => {
    dir = tempDir('sb-cli-otlp-');
    marker = randomUUID();
    const config = writeConfig(dir, marker);
    receiver = await startOtlpReceiver();
    const secretText = `hello-${randomUUID()}`;
    const r = await runCli([
      '--config',
      config,
      '--yes',
      '--otlp',
      receiver.endpoint,
      'call',
      'echo',
      '--server',
      'echo',
      '--args',
      JSON.stringify({ text: secretText }),
      '--json',
    ]);
    expect(r.code).toBe(EXIT.ok);
    const spans = receiver.spans;
    const calls = spans.filter((s) => s.name === 'call echo');
    expect(calls).toHaveLength(1);
    const trace = spans.filter((s) => s.traceId === calls[0]!.traceId);
    expect(trace.map((s) => s.name).sort()).toEqual(['call echo', 'tools/call echo']);
    expect(trace.find((s) => s.name === 'tools/call echo')!.parentSpanId).toBe(calls[0]!.spanId);
    expect(calls[0]!.attributes[ATTR.serverId]).toBe('echo');
    expect(spans.some((s) => s.name === 'connect echo')).toBe(true);
    expect(receiver.bodies.join('\n')).not.toContain(secretText);
  }, 90_000);

  it('refuses a URL that is not http(s) as a usage error', async () => {
    const r = await runCli(['--config', '/nonexistent.json', '--otlp', 'ftp://127.0.0.1:1', 'tools', 'list']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/--otlp: The OTLP endpoint must be http or https/);
  });
});
