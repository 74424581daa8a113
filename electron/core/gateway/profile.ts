// A client profile resolved against the current server definitions: which servers it sees, how names are
// served and what happens to writes. The boundary of everything a gateway client can reach.
import type { ServerConfig } from '../../../shared/config.js';
import type { GatewayProfile, GatewayWritePolicy } from '../../../shared/domains/gateway.js';
import { AppError } from '../../../shared/errors.js';

const groupServer = (group: string): string => group.slice('mcp:'.length);

/** The servers a profile names (servers ∪ the servers of its groups), or undefined for "every server". */
function named(profile: GatewayProfile): Set<string> | undefined {
  if (profile.servers === undefined && profile.groups === undefined) return undefined;
  return new Set([...(profile.servers ?? []), ...(profile.groups ?? []).map(groupServer)]);
}

/**
 * Checks a profile as entered and returns it normalized; throws config_invalid with the reason, and
 * relay_not_servable when it names a webhook relay server (`relays`).
 */
export function normalizeProfile(
  profile: GatewayProfile,
  configs: readonly ServerConfig[],
  relays: ReadonlySet<string> = new Set(),
): GatewayProfile {
  const known = new Set(configs.map((c) => c.id));
  const unknown = [...(profile.servers ?? []), ...(profile.groups ?? []).map(groupServer)].filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new AppError('config_invalid', `No server with id ${[...new Set(unknown)].map((u) => `"${u}"`).join(', ')}`);
  const relayed = [...new Set([...(profile.servers ?? []), ...(profile.groups ?? []).map(groupServer)])].filter((id) => relays.has(id));
  if (relayed.length > 0) {
    const names = relayed.map((id) => `"${configs.find((c) => c.id === id)?.name ?? id}"`).join(', ');
    throw new AppError(
      'relay_not_servable',
      `${names} ${relayed.length === 1 ? 'is a webhook relay server' : 'are webhook relay servers'}: ${relayed.length === 1 ? 'it carries' : 'they carry'} ` +
        "Switchboard's own webhook deliveries, so no gateway client may be given it. Leave it out of the profile.",
      { serverId: relayed[0]! },
    );
  }
  const servers = profile.servers ? [...new Set(profile.servers)].sort() : undefined;
  const groups = profile.groups ? [...new Set(profile.groups)].sort() : undefined;
  const names = profile.names ?? 'local';
  if (names === 'original') {
    const seen = named(profile);
    if (profile.mode !== 'all' || seen?.size !== 1) {
      throw new AppError(
        'config_invalid',
        'Original names need mode "all" and exactly one server (with several servers, names could collide; local names keep them apart)',
      );
    }
  }
  return {
    mode: profile.mode,
    ...(servers ? { servers } : {}),
    ...(groups ? { groups } : {}),
    writes: profile.writes ?? 'ask',
    names,
  };
}

/** A profile resolved against the definitions of one moment. */
export class ProfileView {
  readonly profile: GatewayProfile;
  readonly #visible: Set<string>;
  readonly #missing: string[];

  /** `relays`: webhook relay servers, never visible whatever the profile says (an older profile may name one). */
  constructor(profile: GatewayProfile, configs: readonly ServerConfig[], relays: ReadonlySet<string> = new Set()) {
    this.profile = profile;
    const wanted = named(profile);
    const known = new Set(configs.map((c) => c.id));
    this.#visible = new Set(configs.filter((c) => (wanted === undefined || wanted.has(c.id)) && !relays.has(c.id)).map((c) => c.id));
    this.#missing = wanted ? [...wanted].filter((id) => !known.has(id)).sort() : [];
  }

  /** Whether the client may see (and call into) a server. */
  sees(serverId: string): boolean {
    return this.#visible.has(serverId);
  }

  /** The visible server ids, sorted. */
  servers(): string[] {
    return [...this.#visible].sort();
  }

  /** Named servers that do not exist (removed since the profile was saved). */
  missing(): string[] {
    return [...this.#missing];
  }

  /** Whether tools are served under the single server's own names. */
  get original(): boolean {
    return this.profile.names === 'original';
  }

  /** Whether only the discovery tools are listed at first. */
  get progressive(): boolean {
    return this.profile.mode === 'progressive';
  }

  /** The write policy. */
  get writes(): GatewayWritePolicy {
    return this.profile.writes ?? 'ask';
  }

  /** A key that changes whenever what the profile sees changes (for caches). */
  get key(): string {
    return JSON.stringify([this.servers(), this.profile.names ?? 'local']);
  }
}
