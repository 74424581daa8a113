// Keeps one 2026-07-28 `subscriptions/listen` stream open per session; a gap between streams marks the server dirty.
import type { Client, McpSubscription } from '@modelcontextprotocol/client';
import type { Entry } from './entry.js';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref?.();
  });
}

/** The listen-stream keeper: opens, re-opens (with backoff) and closes each server's listen stream. */
export class ListenStreams {
  readonly #disposed: () => boolean;
  readonly #markDirty: (entry: Entry) => void;

  constructor(disposed: () => boolean, markDirty: (entry: Entry) => void) {
    this.#disposed = disposed;
    this.#markDirty = markDirty;
  }

  /** 2026-07-28 peers that advertise tools.listChanged: keep one `subscriptions/listen` stream open per session. */
  maybeListen(entry: Entry, client: Client): void {
    if (client.getProtocolEra() !== 'modern') return;
    if (!client.getServerCapabilities()?.tools?.listChanged) return;
    if (entry.listenClient === client) return;
    this.close(entry);
    entry.listenClient = client;
    void this.#listenLoop(entry, client);
  }

  async #listenLoop(entry: Entry, client: Client): Promise<void> {
    let failures = 0;
    let first = true;
    const live = (): boolean =>
      entry.listenClient === client && entry.client === client && !entry.registration.signal.aborted && !this.#disposed();
    while (live()) {
      let sub: McpSubscription;
      try {
        sub = await client.listen({ toolsListChanged: true });
      } catch {
        failures++;
        if (failures > 5 || !live()) return;
        await sleep(Math.min(5000, 250 * 2 ** failures));
        continue;
      }
      if (!live()) {
        await sub.close().catch(() => undefined);
        return;
      }
      entry.listen = sub;
      // The time between two streams is a gap in which a change may have been missed: treat it as dirty.
      if (!first) this.#markDirty(entry);
      first = false;
      failures = 0;
      const how = await sub.closed;
      if (entry.listen === sub) entry.listen = undefined;
      if (how === 'local' || !live()) return;
      this.#markDirty(entry);
      await sleep(100);
    }
  }

  /** Stops keeping the entry's listen stream and closes the open one. */
  close(entry: Entry): void {
    entry.listenClient = undefined;
    const sub = entry.listen;
    entry.listen = undefined;
    if (sub) void sub.close().catch(() => undefined);
  }
}
