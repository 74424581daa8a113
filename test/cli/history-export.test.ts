// History → collection: calls made with the built bin on a data folder export (by id, or the saved ones) as a
// collection file that the collection schema accepts and `switchboard run` passes.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CallOutcome } from '../../shared/domains/calls.js';
import { EXIT } from '../../electron/cli/exit-codes.js';
import { loadCollection } from '../../electron/cli/collection/collection-file.js';
import { cleanup, tempDir } from '../shared/support/harness.js';
import { TSX_LOADER } from '../shared/support/tsx-loader.js';
import { buildCli, echoFixture, processesWith, runCli, stopAll } from './cli-harness.js';

let dir: string | undefined;
let marker = '';
beforeAll(() => buildCli(), 120_000);
afterEach(async () => {
  await stopAll();
  expect(processesWith(marker)).toEqual([]);
  if (dir !== undefined) cleanup(dir);
  dir = undefined;
});

describe('switchboard history export', () => {
  it('exports a call as a collection that switchboard run passes, and refuses when no call is given or saved', async () => {
    dir = tempDir('sb-cli-history-');
    marker = randomUUID();
    const data = join(dir, 'data');
    const at = (...args: string[]) => runCli(['--data-dir', data, ...args]);
    const line = `${process.execPath} --import ${TSX_LOADER} ${echoFixture} --marker=${marker}`;
    expect((await at('servers', 'add', '--id', 'echo', line)).code).toBe(EXIT.ok);
    expect((await at('servers', 'approve', 'echo', '--yes')).code).toBe(EXIT.ok);
    const called = await at('call', 'mcp__echo__echo', '--args', '{"text":"round trip"}', '--json');
    expect(called.code).toBe(EXIT.ok);
    const { callId } = JSON.parse(called.stdout) as CallOutcome;

    const file = join(dir, 'echo.collection.json');
    expect((await at('history', 'export', callId, '--name', 'Echo suite', '--out', file)).code).toBe(EXIT.ok);
    const collection = loadCollection(file);
    expect(collection.name).toBe('Echo suite');
    expect(collection.calls).toEqual([
      {
        name: 'echo',
        tool: 'echo',
        server: 'echo',
        args: { text: 'round trip' },
        expect: { status: 'ok', noIsError: true, textContains: 'round trip' },
      },
    ]);
    const ran = await at('run', file, '--json');
    expect(ran.code).toBe(EXIT.ok);

    // Without ids it exports the saved calls: none here, which is a usage error saying so.
    expect((await at('history', 'export')).code).toBe(EXIT.usage);
  }, 120_000);
});
