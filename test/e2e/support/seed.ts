// Writes a settings file with stdio servers already approved, so Switchboard connects them at start-up (a test that
// is not about adding or approving skips those steps). Specs use it through the `seed` option of support/fixture.ts.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SettingsSchema } from '../../../shared/config';
import { launchFingerprint } from '../../../electron/core/servers/approval';
import { confSettingsStore } from '../../shared/support/harness';
import { TSX_LOADER } from '../../shared/support/tsx-loader';

/** The repository root. */
export const root = fileURLToPath(new URL('../../..', import.meta.url));

/** A stdio server to seed. */
export interface SeedServer {
  id: string;
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Extra definition fields (lifecycle, limits, elicitation, …). */
  extra?: Record<string, unknown>;
}

/** The published server-everything over stdio. */
export function everything(id = 'everything', name = 'Everything'): SeedServer {
  return {
    id,
    name,
    command: process.execPath,
    args: [join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  };
}

/** A TypeScript fixture under test/fixtures/servers, run through tsx. */
export function fixture(file: string, id: string, name: string, env: Record<string, string> = {}): SeedServer {
  return { id, name, command: process.execPath, args: ['--import', TSX_LOADER, join(root, 'test/fixtures/servers', file)], env };
}

/** Saves the servers, approved, into the data folder. */
export function seedServers(dataDir: string, servers: SeedServer[]): void {
  const settings = SettingsSchema.parse({
    schemaVersion: 1,
    servers: servers.map((s) => ({
      id: s.id,
      name: s.name,
      transport: { type: 'stdio', command: s.command, args: s.args, cwd: root, env: s.env ?? {}, inheritEnv: false },
      startup: 'eager',
      ...s.extra,
    })),
    demoOffered: true,
  });
  const approvals: Record<string, string> = {};
  for (const server of settings.servers) if (server.transport.type === 'stdio') approvals[server.id] = launchFingerprint(server.transport);
  confSettingsStore(dataDir).save({ ...settings, approvals });
}
