// `switchboard lint` on a fixture with broken schemas: each broken rule is flagged, the clean tool is not, and errors
// give exit 1; a server with clean schemas passes.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../electron/cli/exit-codes.js';
import type { LintFinding } from '../../electron/cli/lint/lint-rules.js';
import { cleanup, tempDir } from '../shared/support/harness.js';
import { TSX_LOADER } from '../shared/support/tsx-loader.js';
import { buildCli, processesWith, root, runCli, stopAll, writeConfig } from './cli-harness.js';

const dirs: string[] = [];
let marker = '';
beforeAll(() => buildCli(), 120_000);
afterEach(async () => {
  await stopAll();
  expect(processesWith(marker)).toEqual([]);
  dirs.splice(0).forEach(cleanup);
});

describe('switchboard lint', () => {
  it('flags broken schemas, names and descriptions, one JSON finding per line, and exits 1', async () => {
    const dir = tempDir('sb-cli-lint-');
    dirs.push(dir);
    marker = randomUUID();
    const broken = join(root, 'test/fixtures/servers/broken-schemas.ts');
    const config = writeConfig(dir, marker, {
      broken: { command: process.execPath, args: ['--import', 'tsx', broken, `--marker=${marker}`], cwd: root },
    });

    const r = await runCli(['--config', config, '--yes', 'lint', '--server', 'broken', '--json']);
    expect(r.code).toBe(EXIT.assertionFailed);
    const findings = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as LintFinding);
    const by = (tool: string): string[] => findings.filter((f) => f.tool === `mcp__broken__${tool}`).map((f) => f.rule);
    expect(by('clean')).toEqual([]);
    expect(by('bad_type')).toEqual(['schema-invalid-type']);
    expect(by('root_anyof')).toEqual(['schema-root-combinator']);
    expect(by('wordy')).toEqual(['description-budget']);
    expect(findings.some((f) => f.rule === 'name-portable')).toBe(true);

    const clean = await runCli(['--config', config, '--yes', 'lint', '--server', 'echo']);
    expect(clean.code).toBe(EXIT.ok);
    expect(clean.stdout).toContain('0 errors');
  });

  it('warns of a missing output schema where a --probe call returned structured content, and only there', async () => {
    const dir = tempDir('sb-cli-lint-');
    dirs.push(dir);
    marker = randomUUID();
    const broken = join(root, 'test/fixtures/servers/broken-schemas.ts');
    const config = writeConfig(dir, marker, {
      broken: { command: process.execPath, args: ['--import', 'tsx', broken, `--marker=${marker}`], cwd: root },
    });
    const findings = async (extra: string[]): Promise<LintFinding[]> => {
      const r = await runCli(['--config', config, '--yes', 'lint', '--server', 'broken', '--json', ...extra]);
      expect(r.code).toBe(EXIT.assertionFailed);
      return r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as LintFinding);
    };
    const probed = (await findings(['--probe'])).filter((f) => f.rule === 'output-schema-missing');
    expect(probed.map((f) => [f.tool, f.severity])).toEqual([['mcp__broken__untyped_result', 'warning']]);
    expect(probed[0]!.message).toContain('--probe');
    // Without --probe (and no history on a throwaway folder) nothing shows it returns structured content.
    expect((await findings([])).some((f) => f.rule === 'output-schema-missing')).toBe(false);
  });

  it('learns from the history that a tool returned structured content', async () => {
    const dir = tempDir('sb-cli-lint-');
    dirs.push(dir);
    marker = randomUUID();
    const data = join(dir, 'data');
    const line = `${process.execPath} --import ${TSX_LOADER} ${join(root, 'test/fixtures/servers/broken-schemas.ts')} --marker=${marker}`;
    expect((await runCli(['--data-dir', data, 'servers', 'add', '--id', 'broken', line])).code).toBe(EXIT.ok);
    expect((await runCli(['--data-dir', data, 'servers', 'approve', 'broken', '--yes'])).code).toBe(EXIT.ok);
    expect((await runCli(['--data-dir', data, 'call', 'mcp__broken__untyped_result'])).code).toBe(EXIT.ok);
    const r = await runCli(['--data-dir', data, 'lint', '--json']);
    const missing = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as LintFinding)
      .filter((f) => f.rule === 'output-schema-missing');
    expect(missing.map((f) => f.tool)).toEqual(['mcp__broken__untyped_result']);
    expect(missing[0]!.message).toContain('a recorded call');
  });
});
