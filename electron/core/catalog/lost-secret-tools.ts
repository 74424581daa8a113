// A tool of a server that cannot start because secrets its approved launch had are gone (a restart without an OS
// keychain loses them): after such a restart the server never listed, so its tools are not in the catalog, and a call
// by name would read "No tool named …". The catalog's listings are not kept across restarts; the tool approvals
// (pins, by server and original name) are, so a name is recognised as the server's by its prefix or by an approved
// tool's local name, and the call fails with `secret_missing` naming the secrets and the fix instead.
import type { ServerConfig } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import type { CatalogState } from './catalog-state.js';
import { baseLocalName, hashedLocalName, normalizeSegment } from './naming.js';

/** The `secret_missing` error for a local name of a server whose launch lacks secrets, or undefined. */
export function lostSecretTool(state: CatalogState, localName: string): AppError | undefined {
  const refusal = state.deps.launchRefusal;
  if (!refusal) return undefined;
  for (const config of state.deps.configs()) {
    if (!belongsTo(state, config.id, localName)) continue;
    const missing = refusal(config)?.evidence?.missingSecrets ?? [];
    if (missing.length === 0) continue;
    return lostSecretError(config, localName, missing);
  }
  return undefined;
}

function belongsTo(state: CatalogState, serverId: string, localName: string): boolean {
  if (localName.startsWith(`mcp__${normalizeSegment(serverId)}__`)) return true;
  const prefix = `${serverId}\u0000`;
  for (const key of state.pins.keys()) {
    if (!key.startsWith(prefix)) continue;
    const original = key.slice(prefix.length);
    if (baseLocalName(serverId, original) === localName || hashedLocalName(serverId, original) === localName) return true;
  }
  return false;
}

function lostSecretError(config: ServerConfig, localName: string, missing: readonly string[]): AppError {
  const one = missing.length === 1;
  const names = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ` and ${missing.length - 10} more` : '');
  return new AppError(
    'secret_missing',
    `${localName.slice(0, 100)} is a tool of ${config.name}, which cannot start: secret missing: the secret${one ? '' : 's'} ${names} ` +
      `${one ? 'is' : 'are'} no longer stored. Enter ${one ? 'it' : 'them'} again on ${config.name}'s page, then approve its launch.`,
    { serverId: config.id, evidence: { missingSecrets: [...missing] } },
  );
}
