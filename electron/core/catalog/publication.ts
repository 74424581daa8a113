// Publication and revisions: listings and approvals become routes, pins and an index once in-flight calls are done.
import type { Client, Tool } from '@modelcontextprotocol/client';
import type { ToolAnnotationsView, ToolSummary } from '../../../shared/domains/catalog.js';
import { escapeUnsafe } from '../../../shared/domains/catalog-text.js';
import { AppError } from '../../../shared/errors.js';
import { toolResourceUri, toolVisibility } from '../apps/tool-ui.js';
import { sanitizeText } from '../text.js';
import type { CatalogState } from './catalog-state.js';
import type { ToolRoute } from './catalog-port.js';
import type { Entry, Published } from './entry.js';
import type { Listing } from './listing.js';
import { assignLocalNames } from './naming.js';
import { fingerprintOf, pinKey, pinnedDefinition, sameDefinition } from './pins.js';
import { ANN_DESTRUCTIVE, ANN_IDEMPOTENT, ANN_OPEN_WORLD, ANN_READ_ONLY, ServerIndex } from './search-index.js';
import { captureMeta } from './server-meta.js';

const LIST_DESCRIPTION_CHARS = 240;

function annotationsView(tool: Tool): ToolAnnotationsView {
  const a = tool.annotations;
  if (!a) return {};
  const out: ToolAnnotationsView = {};
  if (typeof a.readOnlyHint === 'boolean') out.readOnlyHint = a.readOnlyHint;
  if (typeof a.destructiveHint === 'boolean') out.destructiveHint = a.destructiveHint;
  if (typeof a.idempotentHint === 'boolean') out.idempotentHint = a.idempotentHint;
  if (typeof a.openWorldHint === 'boolean') out.openWorldHint = a.openWorldHint;
  if (typeof a.title === 'string') out.title = sanitizeText(a.title);
  return out;
}

function flagsOf(a: ToolAnnotationsView): number {
  return (
    (a.readOnlyHint ? ANN_READ_ONLY : 0) |
    (a.destructiveHint ? ANN_DESTRUCTIVE : 0) |
    (a.idempotentHint ? ANN_IDEMPOTENT : 0) |
    (a.openWorldHint ? ANN_OPEN_WORLD : 0)
  );
}

/** Publishes listings and approvals into the shared state, coordinated with in-flight calls. */
export class Publisher {
  readonly #state: CatalogState;

  constructor(state: CatalogState) {
    this.#state = state;
  }

  /** Marks a call as using a server's catalog; publication waits until the release runs. */
  beginCall(serverId: string): () => void {
    const entry = this.#state.entries.get(serverId);
    if (!entry) return () => undefined;
    entry.activeCalls++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.activeCalls--;
      if (entry.activeCalls === 0) for (const waiter of entry.idleWaiters.splice(0)) waiter();
    };
  }

  /**
   * Resolves once no publication of this server is waiting for its calls. A call waits here before `beginCall`,
   * so a steady stream of overlapping calls (parallel servers) cannot hold a publication off for ever.
   */
  whenPublishable(serverId: string, signal?: AbortSignal): Promise<void> {
    const entry = this.#state.entries.get(serverId);
    if (!entry || entry.publishing === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const at = entry.publishWaiters.indexOf(done);
        if (at >= 0) entry.publishWaiters.splice(at, 1);
        reject(signal?.reason);
      };
      const done = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      entry.publishWaiters.push(done);
    });
  }

  /** Publishes once the calls already using this server's catalog are done; new calls wait meanwhile. */
  async publishWhenIdle(entry: Entry, signal: AbortSignal, publish: () => void): Promise<void> {
    entry.publishing++;
    try {
      await this.#waitForCalls(entry, signal);
      signal.throwIfAborted();
      publish();
    } finally {
      entry.publishing--;
      if (entry.publishing === 0) for (const waiter of entry.publishWaiters.splice(0)) waiter();
    }
  }

  /** Publication waits for calls already using this server's catalog. */
  #waitForCalls(entry: Entry, signal: AbortSignal): Promise<void> {
    if (entry.activeCalls === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(new AppError('cancelled', 'The refresh was cancelled', { serverId: entry.id }));
      signal.addEventListener('abort', onAbort, { once: true });
      entry.idleWaiters.push(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  /** Publishes a validated listing: names, pins, routes, index, revision. Synchronous once it starts. */
  apply(entry: Entry, listing: Listing, client: Client): void {
    const id = entry.id;
    const originals = listing.tools.map((t) => t.tool.name);
    const { names, added } = assignLocalNames(id, originals, entry.identities, (name) => {
      const owner = this.#state.owners.get(name);
      return owner !== undefined && owner !== id;
    });
    if (entry.identities.size + added.size > entry.config.limits.catalogItems) {
      throw new AppError(
        'limit_exceeded',
        `More than ${entry.config.limits.catalogItems} tool identities were assigned in this registration; remove and add the server again to reset them`,
        { serverId: id },
      );
    }
    for (const [original, name] of added) {
      entry.identities.set(original, name);
      this.#state.owners.set(name, id);
    }
    const nextRevision = this.#state.revision + 1;
    // Model-visible tools form the catalog; app-only ones go to the app-only route table (same names, pins, revisions).
    const tools = new Map<string, Published>();
    const appTools = new Map<string, Published>();
    const byOriginal = new Map<string, string>();
    let pinsChanged = false;
    let changed = listing.tools.length !== entry.tools.size + entry.appTools.size;
    for (const listed of listing.tools) {
      const tool = listed.tool;
      const localName = names.get(tool.name)!;
      const definition = pinnedDefinition(tool);
      const fingerprint = fingerprintOf(definition);
      const key = pinKey(id, tool.name);
      let record = this.#state.pins.get(key);
      if (!record) {
        // First sight: this definition becomes the approved one.
        record = { fingerprint, definition };
        this.#state.pins.set(key, record);
        pinsChanged = true;
      }
      if (record.fingerprint !== fingerprint && sameDefinition(record.definition, definition)) {
        // Same definition, keys in another order: not a change.
        record = { fingerprint, definition };
        this.#state.pins.set(key, record);
        pinsChanged = true;
      }
      const pin = record.fingerprint === fingerprint ? 'approved' : 'changed';
      const title = tool.title ?? tool.annotations?.title;
      const resourceUri = toolResourceUri(tool);
      const ui = `${resourceUri ?? ''}|${toolVisibility(tool).join(',')}`;
      const displayKey = `${fingerprint}|${pin}|${listed.appOnly}|${listed.schemaOmitted}|${title ?? ''}|${ui}`;
      const table = listed.appOnly ? appTools : tools;
      const old = entry.tools.get(localName) ?? entry.appTools.get(localName);
      if (old && old.key === displayKey) {
        table.set(localName, old);
      } else {
        changed = true;
        const annotations = annotationsView(tool);
        const route: ToolRoute = {
          localName,
          serverId: id,
          originalName: tool.name,
          revision: nextRevision,
          tool,
          appOnly: listed.appOnly,
          pin,
          fingerprint,
        };
        const description = sanitizeText(tool.description ?? '');
        const summary: ToolSummary = {
          name: localName,
          originalName: escapeUnsafe(tool.name),
          serverId: id,
          ...(title !== undefined ? { title: sanitizeText(title) } : {}),
          description: description.length > LIST_DESCRIPTION_CHARS ? `${description.slice(0, LIST_DESCRIPTION_CHARS)}…` : description,
          annotations,
          appOnly: listed.appOnly,
          ...(resourceUri !== undefined ? { hasApp: true } : {}),
          pin,
        };
        table.set(localName, { route, fingerprint, schemaOmitted: listed.schemaOmitted, summary, key: displayKey });
      }
      byOriginal.set(tool.name, localName);
    }
    if (!changed) for (const name of entry.tools.keys()) if (!tools.has(name)) changed = true;
    if (!changed) for (const name of entry.appTools.keys()) if (!appTools.has(name)) changed = true;
    if (pinsChanged) this.#state.deps.pins.save(this.#state.pins);
    entry.freshUntil = listing.ttlMs !== undefined ? this.#state.now() + listing.ttlMs : 0;
    entry.published = true;
    captureMeta(entry, client);
    const wasStale = entry.stale !== undefined;
    entry.stale = undefined;
    if (changed) {
      entry.tools = tools;
      entry.appTools = appTools;
      entry.byOriginal = byOriginal;
      entry.index = new ServerIndex(
        id,
        [...tools.values()].map((p) => ({
          localName: p.route.localName,
          originalName: p.route.originalName,
          title: p.summary.title,
          description: p.summary.description,
          flags: flagsOf(p.summary.annotations),
        })),
      );
      entry.stats.publications++;
      this.#state.changed([id], true);
    } else if (wasStale) {
      this.#state.changed([id], false);
    }
  }

  /** Approves the current definition of a tool (the fingerprint the user was shown); returns what is now published. */
  approve(localName: string, fingerprint: string): { entry: Entry; published: Published } {
    const { entry, published } = this.#state.find(localName);
    if (published.fingerprint !== fingerprint) {
      throw new AppError('tool_changed', 'The definition changed again since it was shown; review it again', { serverId: entry.id });
    }
    const key = pinKey(entry.id, published.route.originalName);
    this.#state.pins.set(key, { fingerprint, definition: pinnedDefinition(published.route.tool) });
    this.#state.deps.pins.save(this.#state.pins);
    if (published.route.pin !== 'approved') {
      const revision = this.#state.revision + 1;
      const route: ToolRoute = { ...published.route, pin: 'approved', revision };
      const summary: ToolSummary = { ...published.summary, pin: 'approved' };
      const next: Published = { ...published, route, summary, key: published.key.replace('|changed|', '|approved|') };
      (published.route.appOnly ? entry.appTools : entry.tools).set(localName, next);
      this.#state.changed([entry.id], true);
      return { entry, published: next };
    }
    return { entry, published };
  }
}
