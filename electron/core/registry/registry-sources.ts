// The registries the person searches: the official MCP Registry by default, plus any sub-registry implementing the
// same API. Kept in their own file in the data folder (atomic writes; a corrupt file is moved aside).
import { join } from 'node:path';
import { checkServerUrl } from '../../../shared/config.js';
import { OFFICIAL_REGISTRY_URL, type RegistrySource } from '../../../shared/domains/registry.js';
import { AppError } from '../../../shared/errors.js';
import { isObject } from '../json.js';
import type { AppNotice } from '../../../shared/contract.js';
import { readJsonFile, writeJsonAtomicSync } from '../storage/json-file.js';

/** Most sources kept. */
export const MAX_SOURCES = 20;
/** File name of the sources list in the data folder. */
export const SOURCES_FILE = 'registry-sources.json';

/** Checks and normalizes a registry base URL: https (http only on loopback), no credentials, query or fragment. */
export function normalizeSourceUrl(raw: string): string {
  const trimmed = raw.trim();
  const problem = checkServerUrl(trimmed, false);
  if (problem !== null) throw new AppError('url_refused', `The registry URL was refused: ${problem}`);
  const url = new URL(trimmed);
  if (url.search !== '' || url.hash !== '') throw new AppError('url_refused', 'A registry URL has no query or fragment; give its base URL');
  return url.href.replace(/\/+$/, '');
}

/** The list of sources, persisted. */
export class RegistrySources {
  readonly #file: string;
  #urls: string[];

  /** Loads the list from `dir`; `onNotice` hears about a corrupt file that was moved aside. */
  constructor(dir: string, onNotice?: (notice: AppNotice) => void) {
    this.#file = join(dir, SOURCES_FILE);
    const read = readJsonFile(this.#file, parseSources);
    if (read.kind === 'ok') this.#urls = read.value;
    else {
      this.#urls = [OFFICIAL_REGISTRY_URL];
      if (read.kind === 'quarantined')
        onNotice?.({
          id: 'registry-sources-corrupt',
          level: 'warning',
          message: `The registry sources file was unreadable (${read.reason}) and was moved to ${read.backup}; the official registry is used.`,
        });
    }
  }

  /** Every source, in order. */
  list(): RegistrySource[] {
    return this.#urls.map((url) => ({ url, official: url === OFFICIAL_REGISTRY_URL }));
  }

  /** The source to search when none is named: the first one. */
  defaultUrl(): string {
    const first = this.#urls[0];
    if (first === undefined)
      throw new AppError('not_found', 'No registry source is set up; add one (the official one is ' + OFFICIAL_REGISTRY_URL + ')');
    return first;
  }

  /** Resolves a named source (or the default) to a known source URL; unknown ones are refused. */
  resolve(url?: string): string {
    if (url === undefined) return this.defaultUrl();
    const normalized = normalizeSourceUrl(url);
    if (!this.#urls.includes(normalized))
      throw new AppError('not_found', `${normalized} is not one of your registry sources; add it first`);
    return normalized;
  }

  /** Whether a URL is a known source. */
  has(url: string): boolean {
    return this.#urls.includes(url);
  }

  /** Adds a source (no-op when present). */
  add(raw: string): RegistrySource[] {
    const url = normalizeSourceUrl(raw);
    if (this.#urls.includes(url)) return this.list();
    if (this.#urls.length >= MAX_SOURCES) throw new AppError('limit_exceeded', `At most ${MAX_SOURCES} registry sources can be added`);
    this.#save([...this.#urls, url]);
    return this.list();
  }

  /** Removes a source. */
  remove(raw: string): RegistrySource[] {
    const url = normalizeSourceUrl(raw);
    if (!this.#urls.includes(url)) throw new AppError('not_found', `${url} is not one of your registry sources`);
    this.#save(this.#urls.filter((u) => u !== url));
    return this.list();
  }

  #save(urls: string[]): void {
    try {
      writeJsonAtomicSync(this.#file, { v: 1, sources: urls });
    } catch (err) {
      throw new AppError('storage_failed', `The registry sources could not be saved: ${(err as Error).message}`);
    }
    this.#urls = urls;
  }
}

function parseSources(raw: unknown): string[] {
  if (!isObject(raw) || raw['v'] !== 1 || !Array.isArray(raw['sources'])) throw new Error('it is not a registry sources file');
  const urls: string[] = [];
  for (const item of raw['sources'].slice(0, MAX_SOURCES)) {
    if (typeof item !== 'string') throw new Error('a source is not a string');
    const url = normalizeSourceUrl(item);
    if (!urls.includes(url)) urls.push(url);
  }
  return urls;
}
