// Seeds a data folder with stdio fixture servers already approved, as if the person had added and approved them,
// so a spec about another view starts with connected servers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioTransportSchema } from '../../../shared/config';
import { launchFingerprint } from '../../../electron/core/servers/approval';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Writes the settings file with these fixtures (id → script under test/fixtures/servers), approved and eager. */
export function seedFixtureServers(dataDir: string, fixtures: Record<string, string>): void {
  const servers = Object.entries(fixtures).map(([id, script]) => {
    const transport = StdioTransportSchema.parse({
      type: 'stdio',
      command: process.execPath,
      args: ['--import', join(root, 'node_modules/tsx/dist/loader.mjs'), join(root, 'test/fixtures/servers', script)],
      cwd: root,
    });
    return { id, name: id, transport };
  });
  const approvals = Object.fromEntries(servers.map((s) => [s.id, launchFingerprint(s.transport)]));
  writeFileSync(join(dataDir, 'config.json'), JSON.stringify({ schemaVersion: 1, servers, approvals, demoOffered: true }), { mode: 0o600 });
}
