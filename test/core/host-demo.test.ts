// The first-run demo offer: one click adds the built-in server, approved (the click is the consent), and the
// offer disappears; editing its launch needs approval again.
import { afterEach, describe, expect, it } from 'vitest';
import type { AppInfo, ServerDetail } from '../../shared/contract.js';
import { demoServerConfig } from '../../electron/demo/demo-config.js';
import { call, cleanup, makeHost, tempDir } from '../shared/support/harness.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(cleanup));

describe('demo server offer', () => {
  it('adds the demo approved, stops offering it, and asks again after an edit of its command', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const h = makeHost(dir, { demoServer: () => demoServerConfig() });
    expect((await call<AppInfo>(h.dispatch, 'app.info', {})).offerDemo).toBe(true);
    const demo = await call<ServerDetail>(h.dispatch, 'servers.addDemo', {});
    expect(demo.needsApproval).toBe(false);
    expect(demo.approval?.required).toBe(false);
    expect((await call<AppInfo>(h.dispatch, 'app.info', {})).offerDemo).toBe(false);

    const edited = { ...demo.config, transport: { ...demo.config.transport, args: ['/tmp/other.mjs'] } };
    const after = await call<ServerDetail>(h.dispatch, 'servers.update', { id: demo.id, config: edited });
    expect(after.needsApproval).toBe(true);
  });
});
