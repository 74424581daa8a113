// `switchboard run` on a YAML collection against server-everything: one call whose assertions hold and one whose
// assertion fails give exit 1, a JUnit file with exactly one failure, and one JSON line per call with --json.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../electron/cli/exit-codes.js';
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

const COLLECTION = `name: weather
calls:
  - name: chicago has drizzle
    tool: get-structured-content
    server: every
    args: { location: Chicago }
    expect:
      status: ok
      noIsError: true
      textContains: drizzle
      textMatches: 'temperature.*36'
      jsonPath: { $.temperature: 36 }
      matchesOutputSchema: true
      maxDurationMs: 20000
  - name: new york is sunny
    tool: get-structured-content
    server: every
    args: { location: New York }
    expect:
      jsonPath: { $.conditions: Sunny }
`;

describe('switchboard run', () => {
  it('exits 1 with one failing call, and writes JUnit XML with exactly one failure', async () => {
    const dir = tempDir('sb-cli-run-');
    dirs.push(dir);
    marker = randomUUID();
    const config = writeConfig(dir, marker);
    const collection = join(dir, 'weather.yaml');
    writeFileSync(collection, COLLECTION);
    const junit = join(dir, 'junit.xml');

    const r = await runCli(['--config', config, '--yes', 'run', collection, '--reporter', 'junit', '--out', junit]);
    expect(r.code).toBe(EXIT.assertionFailed);
    expect(r.stdout).toContain('PASS  weather › chicago has drizzle');
    expect(r.stdout).toContain('FAIL  weather › new york is sunny');
    expect(r.stdout).toContain('✗ jsonPath $.conditions equals "Sunny": found "Cloudy"');
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(2);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toContain('<testsuite name="weather" tests="2" failures="1"');

    const lines = await runCli(['--config', config, '--yes', 'run', collection, '--json']);
    expect(lines.code).toBe(EXIT.assertionFailed);
    const results = lines.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { name: string; passed: boolean; assertions: unknown[] });
    expect(results.map((x) => [x.name, x.passed])).toEqual([
      ['chicago has drizzle', true],
      ['new york is sunny', false],
    ]);
    expect(results[0]!.assertions).toHaveLength(7);
  });

  it('exits 0 when every assertion holds, and 2 for a collection that is not valid', async () => {
    const dir = tempDir('sb-cli-run-');
    dirs.push(dir);
    marker = randomUUID();
    const config = writeConfig(dir, marker);
    const good = join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({ calls: [{ tool: 'echo', server: 'echo', args: { text: 'hi' }, expect: { textContains: 'hi' } }] }),
    );
    expect((await runCli(['--config', config, '--yes', 'run', good])).code).toBe(EXIT.ok);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ calls: [{ tool: 'echo', expect: { textContain: 'typo' } }] }));
    const r = await runCli(['--config', config, '--yes', 'run', bad]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('is not valid');
  });
});
