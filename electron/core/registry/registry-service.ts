// The registry feature behind the contract: sources, search with an offline cache, preparing and installing entries,
// update checks, and previews of pasted or received install links. Nothing here runs a server: installs go through
// the Host like any added server, so a stdio launch still waits for the person's approval.
import type { ServerConfig, ServerConfigInput } from '../../../shared/config.js';
import type { AppNotice, ServerDetail } from '../../../shared/contract.js';
import type {
  InstalledFrom,
  InstalledStatusChange,
  InstallOrigin,
  InstallPreview,
  InstallValues,
  PreparedInstall,
  PrepareTarget,
  RegistryEntry,
  RegistrySearchResult,
  RegistrySource,
  RegistrySyncReport,
  RegistrySyncResult,
  RegistryUpdate,
  UpdatePreview,
} from '../../../shared/domains/registry.js';
import { AppError } from '../../../shared/errors.js';
import { AuthCredentials } from '../auth/credentials.js';
import type { EventBus } from '../event-bus.js';
import { assertOpenableUrl, type UrlOpener } from '../elicitation/url-opener.js';
import type { CredentialStore } from '../ports.js';
import { sanitizeText, truncate } from '../text.js';
import { entryView, postInstallSteps } from './entry-view.js';
import { describeOptions, type LocalPackages } from './install-options.js';
import { buildInstallPreview } from './install-preview.js';
import { InstallOrigins, type OriginRecord } from './install-origins.js';
import { checkPayload, parseInstallText, parseJsonText, INSTALL_SCHEME, MAX_LINK_CHARS } from './install-link.js';
import { planInstall, type InstallPlan, type PlanContext } from './install-plan.js';
import { describeChanges } from './launch-diff.js';
import { RegistryCache } from './registry-cache.js';
import { getRegistryJson } from './registry-http.js';
import { RegistrySources } from './registry-sources.js';
import { Runtimes } from './runtimes.js';
import { parsePage, parseRecord, parseServerJsonValue, type RegistryRecord, type ServerPackage } from './server-json.js';
import { isNewer } from './versions.js';

/** Entries per page when the caller does not say. */
export const DEFAULT_PAGE_SIZE = 30;
/** Install links kept until the renderer takes them. */
const MAX_PENDING_LINKS = 5;
/** Pages read at most by one incremental sync of a source. */
const MAX_SYNC_PAGES = 20;
/** Sources synced at once by a sync of every source. */
const SYNC_CONCURRENCY = 3;
/** Entries asked for per page of an incremental sync. */
const SYNC_PAGE_SIZE = 100;
/** Registries asked at once during an update check. */
const UPDATE_CONCURRENCY = 4;
/** Links of entries the core has shown, remembered so only those can be opened. */
const MAX_SHOWN_LINKS = 2000;
/** Source name recorded for a pasted server.json. */
export const PASTED_SOURCE = 'pasted';

/** The parts of the Host the registry uses (the Host satisfies it structurally). */
export interface RegistryHost {
  readonly events: EventBus;
  readonly credentials: CredentialStore;
  configs(): readonly ServerConfig[];
  config(id: string): ServerConfig;
  add(input: ServerConfigInput): Promise<ServerDetail>;
  update(id: string, input: ServerConfigInput): Promise<ServerDetail>;
  get(id: string): Promise<ServerDetail>;
  /** Where consented links are opened (the app's safe opener; headless prints them). */
  readonly interaction?: { readonly urlOpener: UrlOpener };
}

/** What the service is built from. */
export interface RegistryServiceOptions {
  /** The data folder (sources, cache and installs files live here). */
  dir: string;
  /** The login-shell PATH (where npx, uvx and docker are looked for). */
  loginPath?: () => Promise<string>;
  /** Network fetch (tests). */
  fetch?: typeof fetch;
  /** Timeout of one registry request (tests shorten it). */
  timeoutMs?: number;
  /** Test-only: npm identifiers mapped to local programs (see LocalPackages). */
  localPackages?: LocalPackages;
  /** Hears about files moved aside. */
  onNotice?: (notice: AppNotice) => void;
  /** Clock (tests). */
  now?: () => number;
}

/** A record and where it came from. */
interface Resolved {
  record: RegistryRecord;
  source: string;
  /** Set when the registry could not be reached and a cached copy is used. */
  offline?: string;
}

const shown = (s: string, max = 300): string => truncate(sanitizeText(s), max);

/** The registry feature. */
export class RegistryService {
  readonly #host: RegistryHost;
  readonly #opts: RegistryServiceOptions;
  readonly #sources: RegistrySources;
  readonly #cache: RegistryCache;
  readonly #origins: InstallOrigins;
  readonly #runtimes: Runtimes;
  readonly #links: string[] = [];
  readonly #shownLinks = new Set<string>();

  constructor(host: RegistryHost, opts: RegistryServiceOptions) {
    this.#host = host;
    this.#opts = opts;
    this.#sources = new RegistrySources(opts.dir, opts.onNotice);
    this.#cache = new RegistryCache(opts.dir, opts.now !== undefined ? { now: opts.now } : {});
    this.#origins = new InstallOrigins(opts.dir, opts.onNotice);
    this.#runtimes = new Runtimes(opts.loginPath ?? (async () => process.env['PATH'] ?? ''), opts.now);
  }

  // ---------------------------------------------------------------- sources

  /** The sources, each with when its cached listings last caught up with it. */
  sources(): RegistrySource[] {
    return this.#sources.list().map((s) => {
      const at = this.#cache.lastSynced(s.url);
      return at !== undefined ? { ...s, lastSyncedAt: at } : s;
    });
  }

  addSource(url: string): RegistrySource[] {
    this.#sources.add(url);
    const sources = this.sources();
    this.#host.events.emit('registry.sourcesChanged', { sources });
    return sources;
  }

  removeSource(url: string): RegistrySource[] {
    this.#sources.remove(url);
    const sources = this.sources();
    this.#host.events.emit('registry.sourcesChanged', { sources });
    return sources;
  }

  // ---------------------------------------------------------------- search

  /** One page of latest versions matching `query`; offline or refused, the last cached listing with a message. */
  async search(args: { query: string; cursor?: string; source?: string; limit?: number }): Promise<RegistrySearchResult> {
    const source = this.#sources.resolve(args.source);
    const query = args.query.trim();
    const url = new URL(`${source}/v0.1/servers`);
    if (query !== '') url.searchParams.set('search', query);
    url.searchParams.set('limit', String(args.limit ?? DEFAULT_PAGE_SIZE));
    url.searchParams.set('version', 'latest');
    if (args.cursor !== undefined) url.searchParams.set('cursor', args.cursor);
    let records: RegistryRecord[];
    let skipped: RegistrySearchResult['skipped'] = [];
    let nextCursor: string | undefined;
    let offline: RegistrySearchResult['offline'];
    try {
      const page = parsePage(await this.#get(url.href), args.cursor);
      records = latestOnly(page.records);
      skipped = page.skipped;
      nextCursor = page.nextCursor;
      this.#cache.putPage(source, query, args.cursor, records, nextCursor);
    } catch (err) {
      const problem = searchProblem(err, source);
      const hit = this.#cache.page(source, query, args.cursor);
      if (hit === undefined) throw problem;
      records = hit.records;
      nextCursor = hit.nextCursor;
      offline = { message: `${problem.message}. Showing the last listing saved on this machine.`, cachedAt: hit.at };
    }
    const runtimes = await this.#runtimes.checks();
    const servers = records.map((r) => this.#view(r, source, runtimes));
    return { servers, source, skipped, ...(nextCursor !== undefined ? { nextCursor } : {}), ...(offline !== undefined ? { offline } : {}) };
  }

  /**
   * Brings the cached listings of a source (default: every source) up to date with what changed at the registry
   * since the last sync (`updated_since`, `include_deleted=true`): deleted entries leave the cache, changed ones
   * replace their copies, and installed servers whose entry's status changed are named. A source that cannot be
   * reached keeps its cache as it was; the reason is in its result.
   */
  async sync(source?: string): Promise<RegistrySyncReport> {
    const targets = source !== undefined ? [this.#sources.resolve(source)] : this.#sources.list().map((s) => s.url);
    return this.#syncTargets(targets);
  }

  async #syncTargets(targets: string[]): Promise<RegistrySyncReport> {
    const now = this.#opts.now ?? Date.now;
    // One slot per target, filled as each ends: the report keeps the targets' order whatever order they end in.
    const results: RegistrySyncResult[] = new Array<RegistrySyncResult>(targets.length);
    const changes: InstalledStatusChange[][] = targets.map(() => []);
    // A few sources at once: a slow or unreachable registry does not hold up the others' syncs.
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < targets.length) {
        const i = next++;
        results[i] = await this.#syncOne(targets[i]!, now, changes[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SYNC_CONCURRENCY, targets.length) }, worker));
    const statusChanges = changes.flat();
    if (results.some((r) => r.syncedAt !== undefined)) this.#host.events.emit('registry.sourcesChanged', { sources: this.sources() });
    return { results, statusChanges };
  }

  /** Syncs one source; its installed servers whose entry changed go to `changes`. Never throws: an error is in the result. */
  async #syncOne(target: string, now: () => number, changes: InstalledStatusChange[]): Promise<RegistrySyncResult> {
    const startedAt = now();
    // Nothing cached yet: ask from now, which checks the registry answers and starts the sync history.
    const since = this.#cache.syncFrom(target) ?? new Date(startedAt).toISOString();
    try {
      const changed: RegistryRecord[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const url = new URL(`${target}/v0.1/servers`);
        url.searchParams.set('updated_since', since);
        url.searchParams.set('include_deleted', 'true');
        url.searchParams.set('limit', String(SYNC_PAGE_SIZE));
        if (cursor !== undefined) url.searchParams.set('cursor', cursor);
        const page = parsePage(await this.#get(url.href), cursor);
        changed.push(...page.records);
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined && pages < MAX_SYNC_PAGES);
      const complete = cursor === undefined;
      const counts = this.#cache.applyChanges(target, changed, { since, at: startedAt, complete });
      changes.push(...this.#installedChanges(target, changed));
      return {
        source: target,
        syncedAt: startedAt,
        ...counts,
        ...(complete
          ? {}
          : {
              error: `More than ${MAX_SYNC_PAGES * SYNC_PAGE_SIZE} entries changed; the first ones were applied and the next sync goes on`,
            }),
      };
    } catch (err) {
      return { source: target, updated: 0, removed: 0, error: searchProblem(err, target).message };
    }
  }

  /** Installed servers whose entry is among the changed ones, with the status the registry now gives its latest version. */
  #installedChanges(source: string, changed: RegistryRecord[]): InstalledStatusChange[] {
    const byName = new Map(changed.filter((r) => r.official.isLatest !== false).map((r) => [r.server.name, r]));
    return this.#origins
      .entries(this.#existingIds())
      .filter(([, o]) => o.source === source && byName.has(o.name))
      .map(([id, o]) => {
        const { status = 'active', statusMessage } = byName.get(o.name)!.official;
        return {
          id,
          name: shown(o.name, 200),
          source: shown(source, 2048),
          status,
          ...(status !== 'active' && statusMessage !== undefined ? { statusMessage: shown(statusMessage, 500) } : {}),
        };
      });
  }

  // ---------------------------------------------------------------- prepare and install

  /** Prepares an entry (or pasted server.json) for installing; nothing is saved. Secret values are never echoed. */
  async prepare(args: PrepareTarget & { choice?: number; values?: InstallValues }): Promise<PreparedInstall> {
    const resolved = await this.#resolve(args);
    assertNotDeleted(resolved.record);
    return this.#prepared(resolved, args.choice, args.values ?? {}, {});
  }

  /** Installs an entry: the definition is added like any server (secrets to the credential store), its origin remembered. */
  async install(
    args: PrepareTarget & { choice?: number; values?: InstallValues; id?: string; displayName?: string },
  ): Promise<ServerDetail> {
    const resolved = await this.#resolve(args);
    assertNotDeleted(resolved.record);
    const existingIds = this.#existingIds();
    if (args.id !== undefined && existingIds.has(args.id)) {
      throw new AppError('id_conflict', `A server with id "${args.id}" already exists; choose another id`, { serverId: args.id });
    }
    const values = args.values ?? {};
    const plan = planInstall(resolved.record.server, args.choice, values, {
      ...(await this.#planBase(existingIds, 'install')),
      ...(args.id !== undefined ? { id: args.id } : {}),
      ...(args.displayName !== undefined ? { displayName: args.displayName } : {}),
    });
    assertComplete(plan);
    const id = plan.config.id;
    await this.#storeBearer(id, plan);
    let detail: ServerDetail;
    try {
      detail = await this.#host.add(plan.config);
    } catch (err) {
      if (plan.bearer !== undefined) await new AuthCredentials(this.#host.credentials).setBearer(id, null).catch(() => undefined);
      throw err;
    }
    this.#origins.set(id, { ...originOf(resolved), choice: plan.choice, values: plainValues(values, plan) });
    return detail;
  }

  // ---------------------------------------------------------------- updates

  /** Every installed registry server with the latest version its registry lists. */
  async updates(): Promise<RegistryUpdate[]> {
    // The update check is also when cached listings catch up with the registries (deleted entries leave the cache);
    // only sources with something cached, so an update check never asks a registry nothing came from.
    await this.#syncTargets(this.#cache.sources().filter((s) => this.#sources.has(s)));
    const existing = this.#existingIds();
    this.#origins.prune(existing);
    const entries = this.#origins.entries(existing);
    const results: RegistryUpdate[] = new Array(entries.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < entries.length; i = next++) {
        const [id, origin] = entries[i]!;
        results[i] = await this.#checkOne(id, origin);
      }
    };
    await Promise.all(Array.from({ length: Math.min(UPDATE_CONCURRENCY, entries.length) }, worker));
    return results;
  }

  /** The update of one installed server to its registry's latest version, as a preview with the changed launch. */
  async previewUpdate(id: string): Promise<UpdatePreview> {
    const config = this.#host.config(id);
    const origin = this.#originOf(id);
    const latest = await this.#detail(origin.source, origin.name, 'latest');
    assertNotDeleted(latest.record);
    const prepared = await this.#prepared(latest, this.#choiceFor(latest.record, origin), origin.values, {
      id,
      displayName: config.name,
      storedSecrets: secretEnvKeys(config),
      excludeId: id,
    });
    return { id, from: origin.version, to: latest.record.server.version, prepared, changes: describeChanges(config, prepared.config) };
  }

  /** Applies an update: the server's launch is replaced (approval needed again if it changed), its settings kept. */
  async applyUpdate(id: string, version: string, values: InstallValues = {}): Promise<ServerDetail> {
    const config = this.#host.config(id);
    const origin = this.#originOf(id);
    const target = await this.#detail(origin.source, origin.name, version);
    assertNotDeleted(target.record);
    const merged = { ...origin.values, ...values };
    const existingIds = this.#existingIds();
    existingIds.delete(id);
    const plan = planInstall(target.record.server, this.#choiceFor(target.record, origin), merged, {
      ...(await this.#planBase(existingIds, 'install')),
      id,
      displayName: config.name,
      storedSecrets: secretEnvKeys(config),
    });
    assertComplete(plan);
    await this.#storeBearer(id, plan);
    const { transport: _old, ...settings } = config;
    const detail = await this.#host.update(id, { ...settings, transport: plan.config.transport });
    this.#origins.set(id, { ...origin, version: target.record.server.version, choice: plan.choice, values: plainValues(merged, plan) });
    return detail;
  }

  // ---------------------------------------------------------------- install links and pasted text

  /** What pasted text (or a received link) would install; nothing is saved, approved or connected. */
  async parseInstall(text: string): Promise<InstallPreview> {
    const parsed = parseInstallText(text);
    return buildInstallPreview(parsed, {
      configs: this.#host.configs(),
      origins: this.#origins,
      isSource: (url) => this.#sources.has(url),
      prepare: (target) => this.prepare(target),
    });
  }

  /** Keeps a link the OS handed over until the renderer takes it, and tells the renderer. */
  receiveLink(link: string): void {
    const trimmed = link.trim();
    if (!trimmed.toLowerCase().startsWith(INSTALL_SCHEME) || trimmed.length > MAX_LINK_CHARS) return;
    this.#links.push(trimmed);
    if (this.#links.length > MAX_PENDING_LINKS) this.#links.splice(0, this.#links.length - MAX_PENDING_LINKS);
    this.#host.events.emit('registry.linkReceived', { count: this.#links.length });
  }

  /** Links received and not yet shown (each returned once). */
  takeLinks(): string[] {
    return this.#links.splice(0);
  }

  /** Opens a repository or website link the core showed (never any other URL) through the safe opener. */
  async openLink(url: string): Promise<void> {
    if (!this.#shownLinks.has(url))
      throw new AppError('url_refused', 'Only the repository and website links of registry entries can be opened here');
    assertOpenableUrl(url);
    const opener = this.#host.interaction?.urlOpener;
    if (opener === undefined) throw new AppError('internal', 'No link opener is set up in this shell');
    await opener.open(url);
  }

  /** Writes the cache now (shutdown). */
  flush(): Promise<void> {
    return this.#cache.flush();
  }

  // ---------------------------------------------------------------- internals

  #get(url: string): Promise<unknown> {
    return getRegistryJson(url, {
      ...(this.#opts.fetch !== undefined ? { fetch: this.#opts.fetch } : {}),
      ...(this.#opts.timeoutMs !== undefined ? { timeoutMs: this.#opts.timeoutMs } : {}),
    });
  }

  #existingIds(): Set<string> {
    return new Set(this.#host.configs().map((c) => c.id));
  }

  async #planBase(existingIds: ReadonlySet<string>, mode: PlanContext['mode']): Promise<PlanContext> {
    return {
      runtimes: await this.#runtimes.checks(),
      existingIds,
      mode,
      ...(this.#opts.localPackages !== undefined ? { local: this.#opts.localPackages } : {}),
    };
  }

  #originOf(id: string): OriginRecord {
    const origin = this.#origins.get(id);
    if (origin === undefined) throw new AppError('not_found', `Server "${id}" was not installed from a registry`, { serverId: id });
    if (origin.source === PASTED_SOURCE)
      throw new AppError('invalid_request', 'This server came from a pasted server.json; there is no registry to update it from', {
        serverId: id,
      });
    if (!this.#sources.has(origin.source)) {
      throw new AppError('not_found', `This server came from ${shown(origin.source)}, which is no longer one of your registry sources`, {
        serverId: id,
      });
    }
    return origin;
  }

  /** The option index to reuse for an update: the same kind and registry type as before when it still exists. */
  #choiceFor(record: RegistryRecord, origin: OriginRecord): number | undefined {
    const options = describeOptions(record.server, { npx: { command: 'npx' }, uvx: { command: 'uvx' }, docker: { command: 'docker' } });
    return options[origin.choice] !== undefined ? origin.choice : undefined;
  }

  #installedFor(record: RegistryRecord, source: string): InstalledFrom[] {
    const existing = this.#existingIds();
    return this.#origins
      .entries(existing)
      .filter(([, o]) => o.name === record.server.name && o.source === source)
      .map(([id, o]) => ({ id, version: shown(o.version, 255), updateAvailable: isNewer(record.server.version, o.version) }));
  }

  #view(record: RegistryRecord, source: string, runtimes: Awaited<ReturnType<Runtimes['checks']>>): RegistryEntry {
    const options = describeOptions(record.server, runtimes, this.#opts.localPackages);
    return this.#remember(entryView(record, source, options, this.#installedFor(record, source)));
  }

  /** Notes the entry's links as openable. */
  #remember(entry: RegistryEntry): RegistryEntry {
    for (const link of [entry.repositoryUrl, entry.websiteUrl]) {
      if (link === undefined) continue;
      this.#shownLinks.delete(link);
      this.#shownLinks.add(link);
      if (this.#shownLinks.size > MAX_SHOWN_LINKS) this.#shownLinks.delete(this.#shownLinks.values().next().value as string);
    }
    return entry;
  }

  async #resolve(target: PrepareTarget): Promise<Resolved> {
    if ('serverJson' in target) {
      let record: RegistryRecord;
      try {
        const value = parseJsonText(target.serverJson);
        checkPayload(value);
        record = parseServerJsonValue(value);
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw new AppError('config_invalid', shown((err as Error).message, 600));
      }
      return { record, source: PASTED_SOURCE };
    }
    const source = this.#sources.resolve(target.source);
    return this.#detail(source, target.name, target.version ?? 'latest');
  }

  /** One version of an entry from its registry; offline or refused, a cached copy when there is one. */
  async #detail(source: string, name: string, version: string): Promise<Resolved> {
    const url = `${source}/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}?include_deleted=true`;
    let raw: unknown;
    try {
      raw = await this.#get(url);
    } catch (err) {
      const error = err instanceof AppError ? err : new AppError('connect_failed', 'The registry could not be reached');
      if (error.code === 'not_found')
        throw new AppError(
          'not_found',
          `The registry has no entry ${shown(name, 200)} ${version === 'latest' ? '' : `version ${shown(version, 60)}`}`.trim(),
        );
      const cached = this.#cache.detail(source, name, version);
      if (cached === undefined) throw error;
      return { record: cached, source, offline: `${error.message}. Prepared from the copy saved on this machine.` };
    }
    const parsed = parseRecord(raw);
    if (!parsed.ok)
      throw new AppError('server_error', `The registry's entry for ${shown(name, 200)} is not valid: ${parsed.skipped.reason}`);
    if (parsed.record.server.name !== name)
      throw new AppError('server_error', `The registry answered with another entry (${shown(parsed.record.server.name, 200)})`);
    this.#cache.putDetail(source, parsed.record);
    return { record: parsed.record, source };
  }

  async #prepared(
    resolved: Resolved,
    choice: number | undefined,
    values: InstallValues,
    extra: { id?: string; displayName?: string; storedSecrets?: ReadonlySet<string>; excludeId?: string },
  ): Promise<PreparedInstall> {
    const existingIds = this.#existingIds();
    if (extra.excludeId !== undefined) existingIds.delete(extra.excludeId);
    const plan = planInstall(resolved.record.server, choice, values, {
      ...(await this.#planBase(existingIds, 'preview')),
      ...(extra.id !== undefined ? { id: extra.id } : {}),
      ...(extra.displayName !== undefined ? { displayName: extra.displayName } : {}),
      ...(extra.storedSecrets !== undefined ? { storedSecrets: extra.storedSecrets } : {}),
    });
    const entry = this.#remember(
      entryView(resolved.record, resolved.source, plan.options, this.#installedFor(resolved.record, resolved.source)),
    );
    const deprecation = deprecationWarning(resolved.record);
    const warnings = [
      ...(deprecation !== undefined ? [deprecation] : []),
      ...(resolved.offline !== undefined ? [resolved.offline] : []),
      ...plan.warnings,
    ];
    return {
      entry,
      origin: originOf(resolved),
      choice: plan.choice,
      config: plan.config,
      inputs: plan.inputs,
      missing: plan.missing,
      warnings,
      postInstall: postInstallSteps(packageOf(plan)),
    };
  }

  async #checkOne(id: string, origin: OriginRecord): Promise<RegistryUpdate> {
    const base = { id, name: shown(origin.name, 200), source: shown(origin.source, 2048), installed: shown(origin.version, 255) };
    if (origin.source === PASTED_SOURCE) return { ...base, updateAvailable: false, error: 'Installed from a pasted server.json' };
    if (!this.#sources.has(origin.source))
      return { ...base, updateAvailable: false, error: 'Its registry is no longer one of your sources' };
    try {
      const latest = await this.#detail(origin.source, origin.name, 'latest');
      const version = latest.record.server.version;
      const { status, statusMessage } = latest.record.official;
      const deleted = status === 'deleted';
      return {
        ...base,
        latest: shown(version, 255),
        updateAvailable: !deleted && isNewer(version, origin.version),
        ...(latest.offline !== undefined ? { error: latest.offline } : {}),
        ...(status === 'deprecated' || deleted ? { status } : {}),
        ...((status === 'deprecated' || deleted) && statusMessage !== undefined ? { statusMessage: shown(statusMessage, 500) } : {}),
      };
    } catch (err) {
      // Unreachable with no cached copy (a deleted entry leaves the listings): the status the last sync saw still flags it.
      const note = this.#cache.statusOf(origin.source, origin.name);
      const flag =
        note !== undefined && note.status !== 'active'
          ? { status: note.status, ...(note.statusMessage !== undefined ? { statusMessage: shown(note.statusMessage, 500) } : {}) }
          : {};
      return { ...base, updateAvailable: false, ...flag, error: err instanceof AppError ? err.message : 'The registry could not be asked' };
    }
  }

  /** A secret Authorization header becomes the server's bearer token (other secret headers are split out by the Host). */
  async #storeBearer(id: string, plan: InstallPlan): Promise<void> {
    if (plan.bearer !== undefined) await new AuthCredentials(this.#host.credentials).setBearer(id, plan.bearer);
  }
}

/** Keeps the latest version of each name (a registry that ignores `version=latest` may list several). */
function latestOnly(records: RegistryRecord[]): RegistryRecord[] {
  const byName = new Map<string, RegistryRecord>();
  for (const r of records) {
    const known = byName.get(r.server.name);
    if (
      known === undefined ||
      (r.official.isLatest === true && known.official.isLatest !== true) ||
      (known.official.isLatest !== true && isNewer(r.server.version, known.server.version))
    ) {
      byName.set(r.server.name, r);
    }
  }
  return [...byName.values()];
}

/** The error to show when a search fails, in plain words. */
function searchProblem(err: unknown, source: string): AppError {
  if (!(err instanceof AppError)) {
    return new AppError(
      'server_error',
      `The registry at ${shown(source)} answered with something that is not a server list: ${shown((err as Error)?.message ?? '', 200)}`,
    );
  }
  if (err.code === 'not_found')
    return new AppError(
      'not_found',
      `${shown(source)} does not serve the registry API (/v0.1/servers answered 404)`,
      err.evidence ? { evidence: err.evidence } : {},
    );
  return err;
}

function originOf(resolved: Resolved): InstallOrigin {
  return { name: resolved.record.server.name, version: resolved.record.server.version, source: resolved.source };
}

/** The package of the chosen option, when it is one. */
function packageOf(plan: InstallPlan): ServerPackage | undefined {
  const source = plan.options[plan.choice]?.source;
  return source?.kind === 'package' ? source.pkg : undefined;
}

/** Refuses an entry its registry deleted (typed, so the renderer can say why instead of offering the install). */
function assertNotDeleted(record: RegistryRecord): void {
  if (record.official.status !== 'deleted') return;
  const why = record.official.statusMessage !== undefined ? `: ${shown(record.official.statusMessage, 300)}` : '';
  throw new AppError('entry_deleted', `${shown(record.server.name, 200)} was deleted from its registry and cannot be installed${why}`);
}

/** The caution shown before installing a deprecated entry, with the registry's reason. */
function deprecationWarning(record: RegistryRecord): string | undefined {
  if (record.official.status !== 'deprecated') return undefined;
  const why = record.official.statusMessage !== undefined ? `: ${shown(record.official.statusMessage, 300)}` : '';
  return `This entry is deprecated by its registry${why}`;
}

/** Refuses an install that still misses required values. */
function assertComplete(plan: InstallPlan): void {
  if (plan.missing.length === 0) return;
  const labels = plan.missing.map((key) => plan.inputs.find((i) => i.key === key)?.label ?? key);
  const problems = plan.warnings.length > 0 ? ` (${plan.warnings.join('; ')})` : '';
  throw new AppError('config_invalid', `Fill in ${labels.map((l) => shown(l, 80)).join(', ')} before installing${problems}`);
}

/** The entered values worth remembering for an update: every non-secret input's value. */
function plainValues(values: InstallValues, plan: InstallPlan): InstallValues {
  const secret = new Set(plan.inputs.filter((i) => i.secret).map((i) => i.key));
  return Object.fromEntries(Object.entries(values).filter(([key]) => !secret.has(key) && plan.inputs.some((i) => i.key === key)));
}

/** Env names and `header:NAME` keys of a stored definition whose value is a secret in the credential store. */
function secretEnvKeys(config: ServerConfig): Set<string> {
  const t = config.transport;
  const values: Record<string, unknown> = t.type === 'stdio' ? t.env : t.headers;
  const prefix = t.type === 'stdio' ? '' : 'header:';
  return new Set(
    Object.entries(values)
      .filter(([, v]) => typeof v !== 'string')
      .map(([k]) => `${prefix}${k}`),
  );
}
