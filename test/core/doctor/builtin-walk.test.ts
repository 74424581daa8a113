// The connection doctor on the built-in demo server: it says the server runs inside Switchboard (never "command
// not found" for its name), starts nothing, and walks the real handshake and tool listing in-process.
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorWalk } from '../../../shared/domains/doctor.js';
import { bootstrap } from '../../../electron/bootstrap.js';
import { demoServerConfig } from '../../../electron/demo/demo-config.js';
import { createSettingsStore } from '../../../electron/platform/settings-store.js';
import { call, cleanup, tempDir } from '../../shared/support/harness.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(cleanup));

describe('doctor walk of a built-in server', () => {
  it('walks the demo in-process: no PATH lookup, no spawn, a real handshake and its tools', async () => {
    const d = tempDir('sb-doctor-demo-');
    dirs.push(d);
    const { host, dispatch } = await bootstrap({
      mode: 'headless',
      version: '0.0.0-test',
      settingsStore: createSettingsStore(d),
      credentials: 'memory',
      demoServer: demoServerConfig,
    });
    try {
      const walk = await call<DoctorWalk>(dispatch, 'servers.test', { config: demoServerConfig() });
      expect(walk.ok).toBe(true);
      expect(walk.trial).toBeUndefined();
      const byId = new Map(walk.steps.map((s) => [s.id, s]));
      expect(byId.get('command')).toMatchObject({ status: 'passed', summary: expect.stringMatching(/Built into Switchboard/) });
      expect(byId.get('spawn')?.status).toBe('skipped');
      expect(byId.get('handshake')?.status).toBe('passed');
      expect(byId.get('tools')).toMatchObject({ status: 'passed', summary: expect.stringMatching(/^[1-9]\d* tool\(s\)$/) });
    } finally {
      await host.shutdown();
    }
  });
});
