// Which installed servers came from a registry: entry name, version, source, the option chosen and the non-secret
// values entered, so an update can be prepared the same way. Its own file in the data folder; secrets never go here.
import { join } from 'node:path';
import type { InstallOrigin, InstallValues } from '../../../shared/domains/registry.js';
import { AppError } from '../../../shared/errors.js';
import { isObject } from '../json.js';
import type { AppNotice } from '../../../shared/contract.js';
import { readJsonFile, writeJsonAtomicSync } from '../storage/json-file.js';

/** File name in the data folder. */
export const ORIGINS_FILE = 'registry-installs.json';
/** Most origins kept. */
const MAX_ORIGINS = 2000;

/** One installed server's origin. */
export interface OriginRecord extends InstallOrigin {
  /** The option (package or remote) chosen. */
  choice: number;
  /** Non-secret values entered at install. */
  values: InstallValues;
}

/** The origins, by server id. */
export class InstallOrigins {
  readonly #file: string;
  #byId: Map<string, OriginRecord>;

  constructor(dir: string, onNotice?: (notice: AppNotice) => void) {
    this.#file = join(dir, ORIGINS_FILE);
    const read = readJsonFile(this.#file, parseOrigins);
    this.#byId = read.kind === 'ok' ? read.value : new Map();
    if (read.kind === 'quarantined')
      onNotice?.({
        id: 'registry-installs-corrupt',
        level: 'warning',
        message: `The registry installs file was unreadable (${read.reason}) and was moved to ${read.backup}; update checks start afresh.`,
      });
  }

  /** The origin of a server, if it came from a registry. */
  get(id: string): OriginRecord | undefined {
    return this.#byId.get(id);
  }

  /** Every origin whose server still exists. */
  entries(existing: ReadonlySet<string>): [string, OriginRecord][] {
    return [...this.#byId].filter(([id]) => existing.has(id));
  }

  /** Records (or replaces) a server's origin. */
  set(id: string, record: OriginRecord): void {
    const next = new Map(this.#byId);
    next.set(id, record);
    this.#save(next);
  }

  /** Forgets origins of servers that no longer exist. */
  prune(existing: ReadonlySet<string>): void {
    const stale = [...this.#byId.keys()].filter((id) => !existing.has(id));
    if (stale.length === 0) return;
    const next = new Map(this.#byId);
    for (const id of stale) next.delete(id);
    this.#save(next);
  }

  #save(next: Map<string, OriginRecord>): void {
    try {
      writeJsonAtomicSync(this.#file, { v: 1, installs: Object.fromEntries(next) });
    } catch (err) {
      throw new AppError('storage_failed', `The registry installs could not be saved: ${(err as Error).message}`);
    }
    this.#byId = next;
  }
}

function parseOrigins(raw: unknown): Map<string, OriginRecord> {
  if (!isObject(raw) || raw['v'] !== 1 || !isObject(raw['installs'])) throw new Error('it is not a registry installs file');
  const out = new Map<string, OriginRecord>();
  for (const [id, r] of Object.entries(raw['installs']).slice(0, MAX_ORIGINS)) {
    if (!isObject(r) || typeof r['name'] !== 'string' || typeof r['version'] !== 'string' || typeof r['source'] !== 'string') continue;
    const values: InstallValues = {};
    if (isObject(r['values'])) for (const [k, v] of Object.entries(r['values'])) if (typeof v === 'string') values[k] = v;
    out.set(id, {
      name: r['name'],
      version: r['version'],
      source: r['source'],
      choice: typeof r['choice'] === 'number' ? r['choice'] : 0,
      values,
    });
  }
  return out;
}
