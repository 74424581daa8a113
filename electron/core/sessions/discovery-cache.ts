// Remembers each server's era verdict (its server/discover result, or "legacy") keyed by a fingerprint of the
// config it was learned with, so the next connect skips the probe. Kept in memory, optionally mirrored to a
// small JSON file (owner-only, written atomically). Cached values are hints, never authorization.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DiscoverResult, PriorDiscovery } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { ServerConfig } from '../../../shared/config.js';

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

/** In-memory discovery cache with optional JSON persistence. */
export class DiscoveryCache {
  readonly #entries = new Map<string, Entry>();
  readonly #file: string | undefined;
  readonly #now: () => number;

  constructor(opts: { file?: string; now?: () => number } = {}) {
    this.#file = opts.file;
    this.#now = opts.now ?? Date.now;
    if (this.#file) this.#load(this.#file);
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

  #load(file: string): void {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return; // no cache yet
    }
    try {
      const parsed = FileSchema.safeParse(JSON.parse(text));
      if (!parsed.success) return;
      for (const [id, e] of Object.entries(parsed.data.entries)) {
        // The schema checked the fields the SDK reads; the rest of DiscoverResult is optional.
        const prior: PriorDiscovery =
          e.prior.kind === 'legacy' ? { kind: 'legacy' } : { kind: 'modern', discover: e.prior.discover as DiscoverResult };
        this.#entries.set(id, { fingerprint: e.fingerprint, storedAt: e.storedAt, prior });
      }
    } catch {
      // A corrupt cache is only a missed optimisation.
    }
  }

  #save(): void {
    const file = this.#file;
    if (!file) return;
    const data = { version: 1, entries: Object.fromEntries(this.#entries) };
    try {
      mkdirSync(dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
      renameSync(tmp, file);
    } catch {
      // Persistence is a bonus; the in-memory cache still works.
    }
  }
}
