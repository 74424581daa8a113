// Checked UI resources kept for a short while, so an app opens without reading its HTML again (the extension lets
// hosts prefetch and cache UI resources). Keyed by server and URI; a server's entries go when its session changes
// (connect, close, list changes, an update of that resource) and every entry expires.
import type { UiResource } from './ui-resource.js';

/** How long a checked resource is reused (ms). */
export const UI_CACHE_TTL_MS = 60_000;
/** Most resources kept. */
const MAX_ENTRIES = 32;

/** A small expiring cache of checked UI resources. */
export class UiCache {
  readonly #entries = new Map<string, { at: number; value: Promise<UiResource> }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The cached resource, or the one `read` gives (shared by concurrent callers; a failure is not kept). */
  get(serverId: string, uri: string, read: () => Promise<UiResource>): Promise<UiResource> {
    const key = `${serverId}\u0000${uri}`;
    const hit = this.#entries.get(key);
    if (hit && this.#now() - hit.at < UI_CACHE_TTL_MS) return hit.value;
    const value = read();
    this.#entries.set(key, { at: this.#now(), value });
    value.catch(() => {
      if (this.#entries.get(key)?.value === value) this.#entries.delete(key);
    });
    for (const k of this.#entries.keys()) {
      if (this.#entries.size <= MAX_ENTRIES) break;
      this.#entries.delete(k);
    }
    return value;
  }

  /** Forgets a server's resources, or one of them. */
  forget(serverId: string, uri?: string): void {
    for (const key of this.#entries.keys()) {
      if (uri === undefined ? key.startsWith(`${serverId}\u0000`) : key === `${serverId}\u0000${uri}`) this.#entries.delete(key);
    }
  }
}
