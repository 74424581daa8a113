// `switchboard load` as a tester runs it: against the echo fixture it makes exactly --requests calls and reports
// percentiles; a server reached over the network is refused without --allow-remote, before anything is contacted.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../electron/cli/exit-codes.js';
import type { LoadReport } from '../../electron/cli/load/stats.js';
import { cleanup, tempDir } from '../shared/support/harness.js';
import { buildCli, processesWith, runCli, stopAll, writeConfig } from './cli-harness.js';

const dirs: string[] = [];
let marker = '';
beforeAll(() => buildCli(), 120_000);
afterEach(async () => {
  await stopAll();
  expect(processesWith(marker)).toEqual([]);
  dirs.splice(0).forEach(cleanup);
});

function config(extra: Record<string, unknown> = {}): string {
  const dir = tempDir('sb-cli-load-');
  dirs.push(dir);
  marker = randomUUID();
  return writeConfig(dir, marker, extra);
}

describe('switchboard load', () => {
  it('stops at its request bound and reports percentiles, throughput and error rate', async () => {
    const r = await runCli([
      '--config',
      config(),
      '--yes',
      'load',
      'echo',
      '--server',
      'echo',
      '--args',
      '{"text":"x"}',
      '--concurrency',
      '4',
      '--requests',
      '40',
      '--json',
    ]);
    expect(r.code).toBe(EXIT.ok);
    const report = JSON.parse(r.stdout) as LoadReport & { plan: { concurrency: number; requests: number } };
    expect(report.plan).toEqual({ concurrency: 4, requests: 40 });
    expect(report).toMatchObject({ requests: 40, ok: 40, errors: 0, errorRate: 0 });
    expect(report.throughput).toBeGreaterThan(0);
    const l = report.latencyMs;
    expect(l.p50).toBeGreaterThan(0);
    expect(l.p50).toBeLessThanOrEqual(l.p95);
    expect(l.p95).toBeLessThanOrEqual(l.p99);
    expect(l.p99).toBeLessThanOrEqual(l.max);
  });

  it('counts tool errors in the error rate and exits with the tool-error code', async () => {
    const r = await runCli([
      '--config',
      config(),
      '--yes',
      'load',
      'add',
      '--server',
      'echo',
      '--args',
      '{"a":"x"}',
      '--requests',
      '5',
      '--json',
    ]);
    expect(r.code).toBe(EXIT.toolError);
    expect(JSON.parse(r.stdout)).toMatchObject({ requests: 5, errors: 5, errorRate: 1, errorCodes: { tool_error: 5 } });
  });

  it('refuses a server reached over the network unless --allow-remote', async () => {
    const remote = config({ far: { url: 'https://mcp.example.com/mcp' } });
    const r = await runCli(['--config', remote, 'load', 'echo', '--server', 'far', '--requests', '1']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('pass --allow-remote');
    expect((await runCli(['--config', remote, 'load', 'echo', '--server', 'echo', '--concurrency', '1000', '--requests', '1'])).code).toBe(
      EXIT.usage,
    );
  });
});
