// Route resolution: the CatalogPort the tool calls use (resolve, validate, hold publication during a call).
import { AppError } from '../../../shared/errors.js';
import { isAppVisible } from '../apps/tool-ui.js';
import type { Entry } from './entry.js';
import type { CatalogState } from './catalog-state.js';
import type { CatalogPort, ToolRoute } from './catalog-port.js';
import { lostSecretTool } from './lost-secret-tools.js';
import { normalizeSegment } from './naming.js';
import type { Publisher } from './publication.js';
import type { Refresher } from './refresh.js';

/** Resolves and validates routes against the published catalog, refreshing dirty servers first. */
export class CatalogRoutes implements CatalogPort {
  readonly #state: CatalogState;
  readonly #refresher: Refresher;
  readonly #publisher: Publisher;

  constructor(state: CatalogState, refresher: Refresher, publisher: Publisher) {
    this.#state = state;
    this.#refresher = refresher;
    this.#publisher = publisher;
  }

  /** Resolves a local name, refreshing its server first when dirty. */
  async route(localName: string, signal?: AbortSignal): Promise<ToolRoute> {
    let entry = this.#state.entryForName(localName);
    if (!entry) {
      // The tool may be new on a server whose id normalizes to the name's server segment and whose listing is due
      // (dirty) or under way (a first listing that connected the server: a call right after "connected" waits for it).
      const segment = /^mcp__(.+?)__/.exec(localName)?.[1];
      const candidates = this.#state
        .sortedEntries()
        .filter((e) => (e.dirty || e.inflight !== undefined) && segment !== undefined && normalizeSegment(e.id) === segment);
      const outcomes = await Promise.all(candidates.map((e) => this.#refresher.awaitRefresh(e, signal)));
      const cancelled = outcomes.find((o) => o.cancelled);
      if (cancelled) throw cancelled.error ?? new AppError('cancelled', 'Cancelled');
      entry = this.#state.entryForName(localName);
    }
    if (!entry) throw lostSecretTool(this.#state, localName) ?? new AppError('not_found', `No tool named "${localName}"`);
    if (entry.dirty) {
      const outcome = await this.#refresher.awaitRefresh(entry, signal);
      if (outcome.cancelled) throw outcome.error ?? new AppError('cancelled', 'Cancelled', { serverId: entry.id });
      // A failed refresh keeps the last good snapshot (marked stale): the call may still use it.
    }
    const published = entry.tools.get(localName);
    if (!published) {
      if (entry.appTools.has(localName)) {
        throw new AppError('invalid_request', `${localName} is for its server's app only (its MCP Apps visibility leaves out the model)`, {
          serverId: entry.id,
        });
      }
      throw lostSecretTool(this.#state, localName) ?? new AppError('not_found', `No tool named "${localName}"`, { serverId: entry.id });
    }
    return approvedRoute(entry, published.route);
  }

  /**
   * Resolves a `tools/call` from a server's own app: the original name on that server only, in the catalog or the
   * app-only route table, refreshing a dirty server first. Tools whose visibility leaves out `app` are refused.
   */
  async appRoute(serverId: string, originalName: string, signal?: AbortSignal): Promise<ToolRoute> {
    const entry = this.#state.entry(serverId);
    if (entry.dirty) {
      const outcome = await this.#refresher.awaitRefresh(entry, signal);
      if (outcome.cancelled) throw outcome.error ?? new AppError('cancelled', 'Cancelled', { serverId });
    }
    const localName = entry.byOriginal.get(originalName);
    const published = localName === undefined ? undefined : (entry.tools.get(localName) ?? entry.appTools.get(localName));
    if (!published) throw new AppError('not_found', `The server offers no tool named "${originalName.slice(0, 200)}"`, { serverId });
    if (!isAppVisible(published.route.tool)) {
      throw new AppError(
        'invalid_request',
        `${published.route.localName} is for the model only (its MCP Apps visibility leaves out the app)`,
        {
          serverId,
        },
      );
    }
    return approvedRoute(entry, published.route);
  }

  /** Throws stale_route when the captured route is no longer the published one. */
  validate(route: ToolRoute): void {
    const entry = this.#state.entries.get(route.serverId);
    const current = entry?.tools.get(route.localName) ?? entry?.appTools.get(route.localName);
    if (!current || current.route.revision !== route.revision || current.route.originalName !== route.originalName) {
      throw new AppError('stale_route', `The catalog changed while ${route.localName} was being called; try again`, {
        serverId: route.serverId,
      });
    }
    if (current.route.pin !== 'approved') {
      throw new AppError('tool_changed', `The definition of ${route.localName} changed since it was approved`, {
        serverId: route.serverId,
      });
    }
  }

  /** Marks a call as using a server's catalog; publication waits until the release runs. */
  whenPublishable(serverId: string, signal?: AbortSignal): Promise<void> {
    return this.#publisher.whenPublishable(serverId, signal);
  }

  beginCall(serverId: string): () => void {
    return this.#publisher.beginCall(serverId);
  }
}

/** The route, or `tool_changed` when its definition changed since the person approved it. */
function approvedRoute(entry: Entry, route: ToolRoute): ToolRoute {
  if (route.pin === 'changed') {
    throw new AppError(
      'tool_changed',
      `The definition of ${route.localName} changed since it was approved; review and approve it before calling`,
      {
        serverId: entry.id,
      },
    );
  }
  return route;
}
