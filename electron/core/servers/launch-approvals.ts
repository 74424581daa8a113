// Launch approvals with their secrets: keyed digests of secret env values (the key is made once per install and
// kept in the credential store, never shown), the approval panel's view with what changed since the last
// approval, and the check at spawn time against the values actually passed to the process.
import { createHmac, randomBytes } from 'node:crypto';
import type { ApprovalRecord, ServerConfig, StdioTransportConfig } from '../../../shared/config.js';
import type { LaunchApproval, LaunchEnvView } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { CredentialStore } from '../ports.js';
import { envSecretAccount } from './secrets.js';
import { approvedLaunch, diffLaunch, fingerprintOf, isLegacyFingerprint } from './approval.js';
import { launchWarnings } from './launch-warnings.js';

/** Credential-store account of the key that digests secret env values for launch fingerprints. */
export const APPROVAL_KEY_ACCOUNT = 'launch-approval-key';

/** What is stored for one server's approval: a record, a bare fingerprint, or nothing. */
export type StoredApproval = string | ApprovalRecord | undefined;

function secretNames(t: StdioTransportConfig): string[] {
  return Object.entries(t.env)
    .filter(([, v]) => typeof v !== 'string')
    .map(([k]) => k);
}

/** Secret env variables the approved record had as secrets that have no stored value now. */
function lostSecrets(stored: StoredApproval, env: readonly LaunchEnvView[]): string[] {
  if (typeof stored !== 'object') return [];
  return env.filter((e) => e.secret && e.isSet === false && stored.launch.env[e.name]?.secret === true).map((e) => e.name);
}

/** The refusal of a launch whose approved secrets are gone: it names them and the fix (never "changed"). */
export function missingSecretsError(config: ServerConfig, names: readonly string[], persistent: boolean): AppError {
  const one = names.length === 1;
  const why = persistent ? 'no longer stored' : 'no longer stored (secrets are kept in memory only, so a restart lost them)';
  return new AppError(
    'approval_required',
    `${config.name} cannot start: the secret${one ? '' : 's'} ${names.join(', ')} ${one ? 'is' : 'are'} ${why}. ` +
      `Enter ${one ? 'it' : 'them'} again in the server's settings ("Enter it again" on its page), then approve its launch.`,
    { serverId: config.id, evidence: { missingSecrets: [...names] } },
  );
}

/** Keyed digests of secret env values, and the approval decisions that need them. */
export class LaunchApprovals {
  readonly #store: CredentialStore;
  #key: Promise<Buffer> | undefined;
  /** Digests of the secret values last seen, by server id and env name. */
  readonly #digests = new Map<string, Map<string, string>>();
  /** Secret env names last seen with no stored value, by server id. */
  readonly #absent = new Map<string, Set<string>>();

  constructor(store: CredentialStore) {
    this.#store = store;
  }

  /** The per-install key: read from the credential store, made and stored on first use. */
  #hmacKey(): Promise<Buffer> {
    this.#key ??= (async () => {
      const stored = await this.#store.get(APPROVAL_KEY_ACCOUNT).catch(() => null);
      if (stored !== null && /^[A-Za-z0-9_-]{43}$/.test(stored)) return Buffer.from(stored, 'base64url');
      const fresh = randomBytes(32);
      // Unstorable (no keychain): the key lives for this run, so secret launches are asked for again next run.
      await this.#store.set(APPROVAL_KEY_ACCOUNT, fresh.toString('base64url')).catch(() => undefined);
      return fresh;
    })();
    return this.#key;
  }

  /** Keyed digest of one secret value (null: no value stored). */
  async #digest(value: string | null): Promise<string> {
    const key = await this.#hmacKey();
    return createHmac('sha256', key)
      .update(value === null ? 'absent' : `value:${value}`, 'utf8')
      .digest('hex')
      .slice(0, 32);
  }

  #remember(serverId: string, name: string, digest: string, absent: boolean): void {
    let map = this.#digests.get(serverId);
    if (!map) this.#digests.set(serverId, (map = new Map()));
    map.set(name, digest);
    let gone = this.#absent.get(serverId);
    if (absent) {
      if (!gone) this.#absent.set(serverId, (gone = new Set()));
      gone.add(name);
    } else gone?.delete(name);
  }

  /** Secrets the approved launch had that were last seen with no stored value (known without reading the store). */
  missing(config: ServerConfig, stored: StoredApproval): string[] {
    const t = config.transport;
    const gone = this.#absent.get(config.id);
    if (t.type !== 'stdio' || typeof stored !== 'object' || !gone) return [];
    return secretNames(t).filter((name) => gone.has(name) && stored.launch.env[name]?.secret === true);
  }

  /** Whether secrets survive a restart in the store these digests read. */
  get persistent(): boolean {
    return this.#store.persistent;
  }

  /** Digests of a server's secret values, read from the credential store now (and remembered). */
  async #read(config: ServerConfig): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    if (config.transport.type !== 'stdio') return out;
    for (const name of secretNames(config.transport)) {
      const value = await this.#store.get(envSecretAccount(config.id, name)).catch(() => null);
      out[name] = await this.#digest(value);
      this.#remember(config.id, name, out[name], value === null);
    }
    return out;
  }

  /** Reads the digests of every server's secret values (start-up), so list views need no store reads. */
  async prepare(configs: readonly ServerConfig[]): Promise<void> {
    for (const config of configs) await this.#read(config).catch(() => undefined);
  }

  /** Remembers the digests of secret values just written and forgets deleted ones. */
  async note(serverId: string, writes: ReadonlyMap<string, string>, deletes: readonly string[]): Promise<void> {
    for (const [name, value] of writes) this.#remember(serverId, name, await this.#digest(value), false);
    for (const name of deletes) {
      this.#digests.get(serverId)?.delete(name);
      this.#absent.get(serverId)?.delete(name);
    }
  }

  /** Forgets a removed server. */
  forget(serverId: string): void {
    this.#digests.delete(serverId);
    this.#absent.delete(serverId);
  }

  /**
   * Whether the launch is approved, from what is known without reading secrets: a secret whose digest is not known
   * yet counts as the approved one (the check at spawn time reads the real value and decides).
   */
  isApproved(config: ServerConfig, stored: StoredApproval): boolean {
    const t = config.transport;
    if (t.type !== 'stdio') return true;
    if (stored === undefined || (typeof stored === 'string' && isLegacyFingerprint(stored))) return false;
    const known = this.#digests.get(config.id);
    const digests: Record<string, string> = {};
    let complete = true;
    for (const name of secretNames(t)) {
      const digest = known?.get(name);
      if (digest !== undefined) digests[name] = digest;
      else {
        complete = false;
        const approved = typeof stored === 'object' ? stored.launch.env[name] : undefined;
        if (approved?.secret) digests[name] = approved.digest;
        else if (typeof stored === 'object') return false;
      }
    }
    if (!complete && typeof stored === 'string') return true;
    const launch = approvedLaunch(t, digests);
    return launch !== undefined && fingerprintOf(launch) === (typeof stored === 'string' ? stored : stored.fingerprint);
  }

  /** The approval panel's view of a stdio launch (reads the secrets' digests now), or undefined for remote servers. */
  async view(config: ServerConfig, stored: StoredApproval): Promise<LaunchApproval | undefined> {
    const t = config.transport;
    if (t.type !== 'stdio') return undefined;
    const digests = await this.#read(config);
    const launch = approvedLaunch(t, digests)!;
    const fingerprint = fingerprintOf(launch);
    const lastApproval = stored === undefined ? 'none' : typeof stored === 'string' && isLegacyFingerprint(stored) ? 'legacy' : 'approved';
    const approvedPrint = typeof stored === 'object' ? stored.fingerprint : stored;
    const required = lastApproval !== 'approved' || approvedPrint !== fingerprint;
    const env: LaunchEnvView[] = [];
    for (const name of Object.keys(t.env).sort()) {
      const value = t.env[name]!;
      if (typeof value === 'string') env.push({ name, secret: false, value });
      else env.push({ name, secret: true, isSet: (await this.#store.get(envSecretAccount(config.id, name)).catch(() => null)) !== null });
    }
    const lost = required ? lostSecrets(stored, env) : [];
    return {
      required,
      fingerprint,
      command: t.command,
      args: [...t.args],
      ...(t.cwd !== undefined ? { cwd: t.cwd } : {}),
      envKeys: Object.keys(t.env).sort(),
      env,
      inheritEnv: t.inheritEnv,
      lastApproval,
      changes: required && typeof stored === 'object' ? diffLaunch(stored.launch, launch, t, new Set(lost)) : [],
      lostSecrets: lost,
      warnings: launchWarnings({ command: t.command, args: t.args, envNames: Object.keys(t.env) }),
    };
  }

  /** The record to store when the user approves the launch they were shown, or approval_required when it changed since. */
  async approve(config: ServerConfig, fingerprint: string, stored: StoredApproval, now = Date.now()): Promise<ApprovalRecord> {
    const t = config.transport;
    if (t.type !== 'stdio') throw new AppError('invalid_request', 'Only stdio servers need launch approval', { serverId: config.id });
    const launch = approvedLaunch(t, await this.#read(config))!;
    const current = fingerprintOf(launch);
    // Approving now would approve a launch without a secret the person had given: they enter it again instead.
    const view = await this.view(config, stored);
    if (view && view.lostSecrets.length > 0) {
      throw new AppError(
        'secret_missing',
        `${view.lostSecrets.join(', ')} ${view.lostSecrets.length === 1 ? 'is' : 'are'} no longer stored; enter ${view.lostSecrets.length === 1 ? 'it' : 'them'} again in the server's settings before approving its launch`,
        { serverId: config.id },
      );
    }
    if (current !== fingerprint) {
      throw new AppError('approval_required', 'The launch changed since it was shown; review it again', { serverId: config.id });
    }
    return { fingerprint: current, launch, approvedAt: now };
  }

  /**
   * The check right before spawning, on the environment actually passed (secrets as read from the store): refuses
   * with `approval_required` when anything differs from the approved launch, e.g. a secret changed in the keychain.
   */
  async verify(config: ServerConfig, stored: StoredApproval, env: Readonly<Record<string, string>>): Promise<AppError | undefined> {
    const t = config.transport;
    if (t.type !== 'stdio') return undefined;
    const digests: Record<string, string> = {};
    for (const name of secretNames(t)) {
      digests[name] = await this.#digest(env[name] ?? null);
      this.#remember(config.id, name, digests[name], env[name] === undefined);
    }
    const launch = approvedLaunch(t, digests)!;
    const approvedPrint = typeof stored === 'object' ? stored.fingerprint : stored;
    if (approvedPrint !== undefined && !isLegacyFingerprint(approvedPrint) && approvedPrint === fingerprintOf(launch)) return undefined;
    const lost = this.missing(config, stored);
    if (lost.length > 0) return missingSecretsError(config, lost, this.#store.persistent);
    const what =
      typeof stored === 'object'
        ? diffLaunch(
            stored.launch,
            launch,
            t,
            new Set(
              lostSecrets(
                stored,
                secretNames(t).map((name) => ({ name, secret: true, isSet: env[name] !== undefined })),
              ),
            ),
          )
            .map((c) => c.summary)
            .slice(0, 3)
            .join('; ')
        : '';
    return new AppError(
      'approval_required',
      `The launch of ${config.name} is not approved${what ? ` (${what})` : ''}; review it and approve it before it can start`,
      { serverId: config.id },
    );
  }
}
