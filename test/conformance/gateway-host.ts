// The server under test for the MCP conformance server suites: a real Switchboard host (bootstrap, session
// manager, catalog, call service) whose gateway fronts the conformance fixture server over stdio. The gateway
// client sees that one server under its own names (an original-names profile), as the suites call tools like
// `test_simple_text` by name. The upstream session is 2026-07-28, so the gateway sees the multi-round tools' input
// rounds themselves and relays them to its client; elicitation, sampling, roots and tasks are on for the server (the
// person's settings gate what may be relayed; a client that negotiates the tasks extension gets the server's tasks). Prints one JSON line {"url","token"} when ready; stops cleanly on
// SIGTERM.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bootstrap } from '../../electron/bootstrap.js';
import { launchFingerprint } from '../../electron/core/servers/approval.js';
import { createSettingsStore } from '../../electron/platform/settings-store.js';
import { TSX_LOADER } from '../shared/support/tsx-loader.js';

const root = resolve(process.argv[2] ?? process.cwd());
const dir = mkdtempSync(join(tmpdir(), 'sb-conformance-gateway-'));
const { host } = await bootstrap({
  mode: 'headless',
  version: '0.0.0-conformance',
  settingsStore: createSettingsStore(dir),
  credentials: 'memory',
});
await host.add({
  id: 'everything',
  name: 'Conformance fixture',
  startup: 'manual',
  lifecycle: 'discover',
  elicitation: true,
  sampling: true,
  roots: true,
  tasks: true,
  transport: {
    type: 'stdio',
    command: process.execPath,
    args: ['--import', TSX_LOADER, join(root, 'test', 'fixtures', 'servers', 'conformance-everything.ts')],
    cwd: root,
  },
});
const config = host.config('everything');
if (config.transport.type === 'stdio') await host.approve('everything', launchFingerprint(config.transport));
await host.sessions.connect('everything');
await host.catalog.refresh('everything');
const { url } = await host.gateway.enable(0);
const { token } = await host.gateway.addClient('conformance', { mode: 'all', servers: ['everything'], names: 'original', writes: 'allow' });
process.stdout.write(`${JSON.stringify({ url, token })}\n`);

let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await host.shutdown();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
