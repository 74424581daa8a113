// Remembers each server's era verdict (its server/discover result, or "legacy") keyed by a fingerprint of the
// config it was learned with, so the next connect skips the probe. Kept in memory, optionally mirrored to a
// small JSON file through the core's atomic JSON writer (coalesced writes, flushed at shutdown). A corrupt file is
// moved aside with a notice. Cached values are hints, never authorization.
import { createHash } from 'node:crypto';
import type { DiscoverResult, PriorDiscovery } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { ServerConfig } from '../../../shared/config.js';
import type { AppNotice } from '../../../shared/contract.js';
import { JsonFileWriter, readJsonFile } from '../storage/json-file.js';

/** A legacy verdict is trusted this long: an upgraded server still answers initialize, so it must expire. */
export const LEGACY_VERDICT_TTL_MS = 24 * 60 * 60 * 1000;
/** A modern verdict is re-validated on every connect, so it may live longer. */
export const MODERN_VERDICT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Fingerprint of everything that decides which server answers: transport target and lifecycle. */
export function configFingerprint(config: ServerConfig): string {
  const t = config.transport;
  const target =
    t.type === 'stdio'
      ? { type: t.type, command: t.command, args: t.args, cwd: t.cwd ?? null, env: Object.entries(t.env).sort(), inheritEnv: t.inheritEnv }
      : { type: t.type, url: t.url, headers: Object.entries(t.headers).sort() };
  return createHash('sha256')
    .update(JSON.stringify([target, config.lifecycle]))
    .digest('hex')
    .slice(0, 32);
}

interface Entry {
  fingerprint: string;
  storedAt: number;
  prior: PriorDiscovery;
}

const FileSchema = z.object({
  version: z.literal(1),
  entries: z.record(
    z.string(),
    z.object({
      fingerprint: z.string(),
      storedAt: z.number(),
      prior: z.union([
        z.object({ kind: z.literal('legacy') }),
        z.object({
          kind: z.literal('modern'),
          discover: z.looseObject({ supportedVersions: z.array(z.string()).min(1), capabilities: z.record(z.string(), z.unknown()) }),
        }),
      ]),
    }),
  ),
});

/** Options of the discovery cache. */
export interface DiscoveryCacheOptions {
  /** JSON file mirroring the cache; memory only when absent. */
  file?: string;
  /** Clock (tests move it). */
  now?: () => number;
  /** Where a corrupt file or a failed write is reported. */
  onNotice?: (notice: AppNotice) => void;
  /** Delay before a change is written; changes in between share one write. */
  delayMs?: number;
}

/** In-memory discovery cache with optional JSON persistence. */
export class DiscoveryCache {
  readonly #entries = new Map<string, Entry>();
  readonly #writer: JsonFileWriter | undefined;
  readonly #now: () => number;
  readonly #onNotice: (notice: AppNotice) => void;

  constructor(opts: DiscoveryCacheOptions = {}) {
    this.#now = opts.now ?? Date.now;
    this.#onNotice = opts.onNotice ?? (() => undefined);
    if (opts.file !== undefined) {
      this.#writer = new JsonFileWriter(opts.file, { delayMs: opts.delayMs ?? 250, onError: (err) => this.#writeFailed(err) });
      this.#load(opts.file);
    }
  }

  /** The cached verdict for a server, when it was learned with the same config and is still fresh. */
  get(serverId: string, fingerprint: string): PriorDiscovery | undefined {
    const entry = this.#entries.get(serverId);
    if (!entry || entry.fingerprint !== fingerprint) return undefined;
    const ttl = entry.prior.kind === 'legacy' ? LEGACY_VERDICT_TTL_MS : MODERN_VERDICT_TTL_MS;
    if (this.#now() - entry.storedAt > ttl) {
      this.delete(serverId);
      return undefined;
    }
    return entry.prior;
  }

  /** Stores a verdict learned with the config of `fingerprint`. */
  set(serverId: string, fingerprint: string, prior: PriorDiscovery): void {
    this.#entries.set(serverId, { fingerprint, storedAt: this.#now(), prior });
    this.#save();
  }

  /** Forgets a server's verdict. */
  delete(serverId: string): void {
    if (this.#entries.delete(serverId)) this.#save();
  }

  /** Writes a pending change now; resolves once it is on disk or reported. Never rejects. */
  async flush(): Promise<void> {
    try {
      await this.#writer?.flush();
    } catch (err) {
      this.#writeFailed(err);
    }
  }

  #load(file: string): void {
    let read: ReturnType<typeof readJsonFile<z.infer<typeof FileSchema>>>;
    try {
      read = readJsonFile(file, (raw) => {
        const parsed = FileSchema.safeParse(raw);
        if (!parsed.success) throw new Error('the file is not a discovery cache');
        return parsed.data;
      });
    } catch {
      return; // unreadable (permissions, a folder): a missed optimisation; the write will report if it fails too
    }
    if (read.kind === 'quarantined') {
      this.#onNotice({
        id: 'discovery-cache-corrupt',
        level: 'info',
        message: `The connection cache could not be read (${read.reason}); it was moved aside to ${read.backup}. The next connect of each server probes its protocol again.`,
      });
      return;
    }
    if (read.kind !== 'ok') return;
    for (const [id, e] of Object.entries(read.value.entries)) {
      // The schema checked the fields the SDK reads; the rest of DiscoverResult is optional.
      const prior: PriorDiscovery =
        e.prior.kind === 'legacy' ? { kind: 'legacy' } : { kind: 'modern', discover: e.prior.discover as DiscoverResult };
      this.#entries.set(id, { fingerprint: e.fingerprint, storedAt: e.storedAt, prior });
    }
  }

  #save(): void {
    this.#writer?.schedule(() => ({ version: 1, entries: Object.fromEntries(this.#entries) }));
  }

  #writeFailed(err: unknown): void {
    // Persistence is a bonus (the in-memory cache still works), but a failing disk is worth knowing about.
    this.#onNotice({
      id: 'discovery-cache-write-failed',
      level: 'info',
      message: `The connection cache could not be saved: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
}
