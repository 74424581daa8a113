// Launch approvals of stdio servers against the stored records: whether a launch is approved, the check right
// before a spawn, and the record an approval saves. Changes of what the server list shows go to onChanged listeners.
import type { ApprovalRecord, ServerConfig } from '../../../shared/config.js';
import type { AppNotice, LaunchApproval } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { CredentialStore } from '../ports.js';
import { isLegacyFingerprint } from './approval.js';
import type { Definitions } from './definitions.js';
import { LaunchApprovals, missingSecretsError, type StoredApproval } from './launch-approvals.js';

/** Approvals of the definitions' stdio launches. */
export class LaunchGate {
  readonly #approvals: LaunchApprovals;
  readonly #definitions: Definitions;
  readonly #listeners = new Set<() => void>();
  /** Settles once the digests of stored secret env values are known (start waits for it). */
  readonly ready: Promise<void>;

  constructor(credentials: CredentialStore, definitions: Definitions) {
    this.#approvals = new LaunchApprovals(credentials);
    this.#definitions = definitions;
    // A failed read leaves the digests unknown: those launches count as approved until verifyLaunch reads them.
    this.ready = this.#approvals
      .prepare(definitions.configs())
      .then(() => this.#changed())
      .catch(() => undefined);
  }

  /** Calls `listener` when what needsApproval shows may have changed; returns the detach function. */
  onChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The notice for approvals of an earlier version (which did not cover env values), when any is stored. */
  legacyNotice(): AppNotice | undefined {
    const { servers, approvals } = this.#definitions.settings;
    const legacy = servers.filter((c) => {
      const stored = approvals[c.id];
      return c.transport.type === 'stdio' && typeof stored === 'string' && isLegacyFingerprint(stored);
    });
    if (legacy.length === 0) return undefined;
    return {
      id: 'approvals-env-values',
      level: 'info',
      message:
        'Launch approvals now cover the values of environment variables (secrets by a keyed digest), not only their names. ' +
        `Approvals from an earlier version did not, so these servers ask once more before they start: ${legacy.map((c) => c.name).join(', ')}.`,
    };
  }

  /** Whether a stdio server's exact launch is approved (secret values not read yet count as approved: see verify). */
  isApproved(config: ServerConfig): boolean {
    return this.#approvals.isApproved(config, this.#stored(config.id));
  }

  /**
   * Why a stdio launch may not start now, in the words the person sees, or undefined when it is approved: a launch
   * whose approved secrets are gone names them and says to enter them again.
   */
  refusal(config: ServerConfig): AppError | undefined {
    const t = config.transport;
    if (t.type !== 'stdio' || this.isApproved(config)) return undefined;
    const lost = this.#approvals.missing(config, this.#stored(config.id));
    if (lost.length > 0) return missingSecretsError(config, lost, this.#approvals.persistent);
    return new AppError('approval_required', `Approve the exact command before ${config.name} can start: ${t.command}`, {
      serverId: config.id,
    });
  }

  /** The check right before a stdio spawn, on the environment actually passed; an error when it is not the approved launch. */
  async verify(config: ServerConfig, env: Readonly<Record<string, string>>): Promise<AppError | undefined> {
    const refusal = await this.#approvals.verify(config, this.#stored(config.id), env);
    if (refusal) this.#changed();
    return refusal;
  }

  /** What the server's detail shows about its launch approval. */
  view(config: ServerConfig): Promise<LaunchApproval | undefined> {
    return this.#approvals.view(config, this.#stored(config.id));
  }

  /** Notes the digests of secret env values just written or deleted. */
  note(serverId: string, writes: ReadonlyMap<string, string>, deletes: readonly string[]): Promise<void> {
    return this.#approvals.note(serverId, writes, deletes);
  }

  /** The record approving exactly this launch (the caller saves it). */
  approve(config: ServerConfig, fingerprint: string): Promise<ApprovalRecord> {
    return this.#approvals.approve(config, fingerprint, this.#stored(config.id));
  }

  /** Forgets a removed server's digests. */
  forget(serverId: string): void {
    this.#approvals.forget(serverId);
  }

  #stored(id: string): StoredApproval {
    return this.#definitions.settings.approvals[id];
  }

  #changed(): void {
    for (const l of [...this.#listeners]) l();
  }
}
