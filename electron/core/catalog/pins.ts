// Tool pinning: the definition a user first saw (description, input/output schema, annotations) is fingerprinted
// and kept; a later listing that changes any of them marks the tool "changed since approved" until approved again.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import type { PinDiffEntry } from '../../../shared/domains/catalog.js';
import type { AppNotice } from '../../../shared/contract.js';
import { prettyJson } from '../../../shared/domains/catalog-text.js';
import { isObject } from '../json.js';
import { copyAside, JsonFileWriter, readJsonFile } from '../storage/json-file.js';

/** The pinned parts of a definition. */
export interface PinnedDefinition {
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** One approved definition. */
export interface PinRecord {
  fingerprint: string;
  definition: PinnedDefinition;
}

/** Where approvals are kept, keyed by `<serverId>\u0000<original tool name>`. */
export interface PinStore {
  /** Whether approvals survive a restart. */
  readonly persistent: boolean;
  load(): Map<string, PinRecord>;
  /** Persists the whole map (may be deferred). */
  save(records: ReadonlyMap<string, PinRecord>): void;
  /** Writes any deferred save now; resolves once it is on disk or reported. Never rejects. */
  flush(): Promise<void>;
}

/** The PinStore key of a server's tool: `<serverId>\u0000<original tool name>`. */
export const pinKey = (serverId: string, original: string): string => `${serverId}\u0000${original}`;

/** Approvals in memory only (tests, benchmarks). */
export class MemoryPinStore implements PinStore {
  readonly persistent = false;
  #records = new Map<string, PinRecord>();
  load(): Map<string, PinRecord> {
    return new Map(this.#records);
  }
  save(records: ReadonlyMap<string, PinRecord>): void {
    this.#records = new Map(records);
  }
  async flush(): Promise<void> {}
}

/** Options of the pin file. */
export interface JsonFilePinStoreOptions {
  /** File name in the folder (default tool-pins.json). */
  fileName?: string;
  /** Delay before a save is written; saves in between share one write. */
  delayMs?: number;
  /** Where a corrupt file or a failed write is reported. */
  onNotice?: (notice: AppNotice) => void;
}

/**
 * Approvals in a JSON file (mode 0600) next to the settings, written through the core's atomic JSON writer: saves are
 * coalesced and written a moment later, and shutdown flushes what is pending. A corrupt file is moved aside with a
 * notice, and a file with some unreadable records is kept aside before they are left out: an approval is never
 * dropped silently (a tool whose approval is lost is shown as new and needs approving again).
 */
export class JsonFilePinStore implements PinStore {
  readonly persistent = true;
  readonly #file: string;
  readonly #writer: JsonFileWriter;
  readonly #onNotice: (notice: AppNotice) => void;
  #memoryOnly = false;

  constructor(dir: string, opts: JsonFilePinStoreOptions = {}) {
    this.#file = join(dir, opts.fileName ?? 'tool-pins.json');
    this.#onNotice = opts.onNotice ?? (() => undefined);
    this.#writer = new JsonFileWriter(this.#file, { delayMs: opts.delayMs ?? 500, onError: (err) => this.#writeFailed(err) });
  }

  get file(): string {
    return this.#file;
  }

  load(): Map<string, PinRecord> {
    let unreadable = 0;
    let read: ReturnType<typeof readJsonFile<Map<string, PinRecord>>>;
    try {
      read = this.#read(() => (unreadable += 1));
    } catch (err) {
      // Unreadable for another reason (permissions, not a file): never overwrite what we could not read.
      this.#memoryOnly = true;
      this.#onNotice({
        id: 'pins-corrupt',
        level: 'warning',
        message: `The tool approvals file could not be read (${(err as Error).message}); approvals are kept for this session only.`,
      });
      return new Map();
    }
    if (read.kind === 'missing') return new Map();
    if (read.kind === 'quarantined') {
      this.#onNotice({
        id: 'pins-corrupt',
        level: 'warning',
        message: `The tool approvals file could not be read (${read.reason}); it was moved aside to ${read.backup}. Tools will ask for approval again.`,
      });
      return new Map();
    }
    if (unreadable > 0) {
      const backup = copyAside(this.#file);
      this.#onNotice({
        id: 'pins-corrupt',
        level: 'warning',
        message: `${unreadable} tool approvals could not be read and were left out; the file as it was is kept as ${backup}.`,
      });
    }
    return read.value;
  }

  #read(onUnreadable: () => void): ReturnType<typeof readJsonFile<Map<string, PinRecord>>> {
    return readJsonFile(this.#file, (raw) => {
      const pins = isObject(raw) ? raw['pins'] : undefined;
      if (!isObject(pins)) throw new Error('the file holds no tool approvals');
      const out = new Map<string, PinRecord>();
      for (const [key, value] of Object.entries(pins)) {
        const fingerprint = isObject(value) ? value['fingerprint'] : undefined;
        const definition = isObject(value) ? value['definition'] : undefined;
        if (typeof fingerprint === 'string' && isObject(definition))
          out.set(key, { fingerprint, definition: definition as PinnedDefinition });
        else onUnreadable();
      }
      return out;
    });
  }

  save(records: ReadonlyMap<string, PinRecord>): void {
    if (this.#memoryOnly) return;
    const snapshot = new Map(records);
    this.#writer.schedule(() => ({ version: 1, pins: Object.fromEntries(snapshot) }));
  }

  async flush(): Promise<void> {
    try {
      await this.#writer.flush();
    } catch (err) {
      this.#writeFailed(err);
    }
  }

  #writeFailed(err: unknown): void {
    this.#onNotice({
      id: 'pins-write-failed',
      level: 'error',
      message: `Tool approvals could not be saved (${err instanceof Error ? err.message : String(err)}); they are kept for this session only.`,
    });
  }
}

/** JSON with object keys sorted, so a fingerprint does not depend on key order. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The pinned parts of a listed tool. */
export function pinnedDefinition(tool: Tool): PinnedDefinition {
  return {
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
  };
}

/**
 * Fingerprint of a pinned definition as listed (cheap: plain JSON, no key sorting). Two fingerprints that differ
 * may still be the same definition with keys in another order: use `sameDefinition` before calling it a change.
 */
export function fingerprintOf(def: PinnedDefinition): string {
  return createHash('sha256')
    .update(JSON.stringify([def.description ?? null, def.inputSchema ?? null, def.outputSchema ?? null, def.annotations ?? null]))
    .digest('hex')
    .slice(0, 32);
}

/** True when two definitions are equal up to object key order. */
export function sameDefinition(a: PinnedDefinition, b: PinnedDefinition): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

const FIELDS = ['description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** What changed between the approved and the current definition, field by field. */
export function pinDiff(before: PinnedDefinition, after: PinnedDefinition): PinDiffEntry[] {
  const out: PinDiffEntry[] = [];
  for (const field of FIELDS) {
    const a = before[field];
    const b = after[field];
    if (canonicalJson(a) === canonicalJson(b)) continue;
    const show = (v: unknown): string =>
      v === undefined ? '(none)' : typeof v === 'string' ? prettyJson(v).slice(1, -1).replace(/\\n/g, '\n') : prettyJson(v);
    out.push({ field, before: show(a), after: show(b) });
  }
  return out;
}
