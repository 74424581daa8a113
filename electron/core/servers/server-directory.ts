// The person's servers: adding, editing, approving and removing definitions (secrets kept in the credential store,
// launch approvals on record), each change saved, told to the session controller and published as servers.changed.
import type { ServerConfig, ServerConfigInput, Settings } from '../../../shared/config.js';
import type { LogEntry, ServerDetail, ServerStatus, ServerSummary } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { EventBus } from '../event-bus.js';
import type { CredentialStore } from '../ports.js';
import type { SessionController } from '../sessions/session-controller.js';
import { displayTarget } from './approval.js';
import type { Definitions } from './definitions.js';
import type { LaunchGate } from './launch-gate.js';
import { deleteSecrets, maskConfig, persistSecrets, splitSecrets, type SplitConfig } from './secrets.js';

/** What the directory is built from. */
export interface ServerDirectoryDeps {
  events: Pick<EventBus, 'emit'>;
  credentials: CredentialStore;
  definitions: Definitions;
  gate: LaunchGate;
  sessions: SessionController;
  /** Definition of the built-in demo server, when the shell ships one. */
  demoServer?: () => ServerConfigInput;
  /** Whether the server lists event types (the SDK drops the `events` capability it advertised, so it is added back). */
  hasEvents?: (id: string) => boolean;
  /** Where a stdio server's process runs (its own cwd, else its folder in the data folder). */
  workDir?: (config: ServerConfig) => string | undefined;
  /** Cleans up after a removed server (its own folder in the data folder); tells the person itself when that fails. */
  removed?: (config: ServerConfig) => Promise<void>;
}

/** The server definitions as the contract sees them. */
export class ServerDirectory {
  readonly #d: ServerDirectoryDeps;

  constructor(deps: ServerDirectoryDeps) {
    this.#d = deps;
    deps.gate.onChanged(() => this.#publish());
  }

  /** Whether the shell ships a demo server. */
  get hasDemo(): boolean {
    return this.#d.demoServer !== undefined;
  }

  list(): ServerSummary[] {
    return this.#d.definitions.configs().map((c) => this.#summary(c));
  }

  async get(id: string): Promise<ServerDetail> {
    const config = this.#d.definitions.config(id);
    const approval = await this.#d.gate.view(config);
    const said = this.#d.sessions.identity(id);
    const identity =
      said !== undefined && !said.capabilities.includes('events') && this.#d.hasEvents?.(id) === true
        ? { ...said, capabilities: [...said.capabilities, 'events'].sort() }
        : said;
    const workDir = this.#d.workDir?.(config);
    return {
      ...this.#summary(config),
      config: await maskConfig(this.#d.credentials, config),
      ...(approval ? { approval } : {}),
      ...(identity ? { identity } : {}),
      ...(workDir !== undefined ? { workDir } : {}),
    };
  }

  async add(input: ServerConfigInput): Promise<ServerDetail> {
    const settings = this.#d.definitions.settings;
    if (settings.servers.some((s) => s.id === input.id)) {
      throw new AppError('id_conflict', `A server with id "${input.id}" already exists`, { serverId: input.id });
    }
    const split = splitSecrets(input);
    await persistSecrets(this.#d.credentials, split.config.id, split);
    await this.#d.gate.note(split.config.id, split.writes, split.deletes);
    const now = this.#d.definitions.settings;
    this.#save({ ...now, servers: [...now.servers, split.config] });
    this.#d.sessions.register(split.config);
    return this.get(split.config.id);
  }

  async update(id: string, input: ServerConfigInput): Promise<ServerDetail> {
    const previous = this.#d.definitions.config(id);
    if (input.id !== id) throw new AppError('config_invalid', 'A server id cannot be changed; remove and add it instead', { serverId: id });
    const split = splitSecrets(input, previous);
    await persistSecrets(this.#d.credentials, id, split);
    await this.#d.gate.note(id, split.writes, split.deletes);
    const now = this.#d.definitions.settings;
    this.#save({ ...now, servers: now.servers.map((s) => (s.id === id ? split.config : s)) });
    this.#d.sessions.update(split.config, {
      secretsChanged: split.writes.size > 0 || split.deletes.length > 0 || split.headerWrites.size > 0 || split.headerDeletes.length > 0,
    });
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    const config = this.#d.definitions.config(id);
    await this.#d.sessions.remove(id);
    const now = this.#d.definitions.settings;
    const approvals = { ...now.approvals };
    delete approvals[id];
    this.#save({ ...now, servers: now.servers.filter((s) => s.id !== id), approvals });
    await deleteSecrets(this.#d.credentials, config);
    this.#d.gate.forget(id);
    await this.#d.removed?.(config);
  }

  async approve(id: string, fingerprint: string): Promise<ServerDetail> {
    const config = this.#d.definitions.config(id);
    const record = await this.#d.gate.approve(config, fingerprint);
    const now = this.#d.definitions.settings;
    this.#save({ ...now, approvals: { ...now.approvals, [id]: record } });
    this.#d.sessions.update(config);
    return this.get(id);
  }

  async addDemo(): Promise<ServerDetail> {
    const make = this.#d.demoServer;
    if (!make) throw new AppError('not_found', 'This build has no demo server');
    this.#save({ ...this.#d.definitions.settings, demoOffered: true });
    const detail = await this.add(make());
    // The user asked for the built-in demo by name: its launch is ours (the app's own runtime and script), so the
    // click is the approval. Any later edit of its command still needs approval again.
    return detail.approval?.required ? this.approve(detail.id, detail.approval.fingerprint) : detail;
  }

  /** Saves definitions whose secrets are already stored, in one settings write, and registers them. */
  addSplit(splits: readonly SplitConfig[]): void {
    if (splits.length === 0) return;
    const now = this.#d.definitions.settings;
    this.#save({ ...now, servers: [...now.servers, ...splits.map((split) => split.config)] });
    for (const split of splits) this.#d.sessions.register(split.config);
  }

  status(id: string): ServerStatus {
    this.#d.definitions.config(id);
    return this.#d.sessions.status(id);
  }

  logs(id: string): LogEntry[] {
    this.#d.definitions.config(id);
    return this.#d.sessions.logs(id);
  }

  #summary(config: ServerConfig): ServerSummary {
    return {
      id: config.id,
      name: config.name,
      enabled: config.enabled,
      transport: config.transport.type,
      target: displayTarget(config),
      status: this.#d.sessions.status(config.id),
      needsApproval: !this.#d.gate.isApproved(config),
    };
  }

  #save(next: Settings): void {
    this.#d.definitions.save(next);
    this.#publish();
  }

  /** Tells windows the servers changed (they fetch the open server's details again), e.g. once its events are known. */
  publish(): void {
    this.#publish();
  }

  #publish(): void {
    this.#d.events.emit('servers.changed', { servers: this.list() });
  }
}
