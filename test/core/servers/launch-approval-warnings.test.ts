// Every hostile launch pattern reaches the approval data the panel shows (servers.get through the real dispatcher):
// the warning code and its plain words, before anything is approved, with env values never in the text.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerDetail } from '../../../shared/contract.js';
import { call, cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';
import { HOSTILE_LAUNCHES } from './hostile-launches.js';

let h: HostHarness;

beforeEach(() => {
  h = makeHost(tempDir('sb-launch-warn-'));
});

afterEach(async () => {
  await h.host.shutdown();
  cleanup(h.dir);
});

const ENV_VALUE = 'env-value-canary-41c9';

describe('approval data for hostile launches', () => {
  it('carries the warning for every pattern, and never an env value', async () => {
    for (const [i, { launch, code, says }] of HOSTILE_LAUNCHES.entries()) {
      const id = `hostile-${i}`;
      const env = Object.fromEntries(launch.envNames.map((n) => [n, ENV_VALUE]));
      await call(h.dispatch, 'servers.add', {
        config: { id, name: id, startup: 'manual', transport: { type: 'stdio', command: launch.command, args: [...launch.args], env } },
      });
      const detail = await call<ServerDetail>(h.dispatch, 'servers.get', { id });
      expect(detail.approval?.required, id).toBe(true);
      const warning = detail.approval?.warnings.find((w) => w.code === code);
      expect(warning, `${id} ${JSON.stringify(detail.approval?.warnings)}`).toBeDefined();
      expect(warning!.text).toMatch(says);
      expect(JSON.stringify(detail.approval?.warnings)).not.toContain(ENV_VALUE);
    }
  });

  it('an ordinary launch carries none', async () => {
    await call(h.dispatch, 'servers.add', {
      config: {
        id: 'plain',
        name: 'plain',
        startup: 'manual',
        transport: { type: 'stdio', command: 'uvx', args: ['mcp-server-time'], env: { TZ: 'UTC' } },
      },
    });
    const detail = await call<ServerDetail>(h.dispatch, 'servers.get', { id: 'plain' });
    expect(detail.approval).toMatchObject({ required: true, warnings: [] });
  });
});
