// Tool pinning: the definition a user first saw (description, input/output schema, annotations) is fingerprinted
// and kept; a later listing that changes any of them marks the tool "changed since approved" until approved again.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import type { PinDiffEntry } from '../../../shared/domains/catalog.js';
import { prettyJson } from '../../../shared/domains/catalog-text.js';

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
  /** Writes any deferred save now. */
  flush(): void;
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
  flush(): void {}
}

/**
 * Approvals in a JSON file (mode 0600) next to the settings. Saves are coalesced and written atomically
 * (temp file + rename) a moment later; a corrupt or unreadable file starts empty (every tool is re-pinned on sight).
 */
export class JsonFilePinStore implements PinStore {
  readonly persistent = true;
  readonly #file: string;
  readonly #delayMs: number;
  #pending: ReadonlyMap<string, PinRecord> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(dir: string, opts: { fileName?: string; delayMs?: number } = {}) {
    this.#file = join(dir, opts.fileName ?? 'tool-pins.json');
    this.#delayMs = opts.delayMs ?? 500;
  }

  get file(): string {
    return this.#file;
  }

  load(): Map<string, PinRecord> {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.#file, 'utf8'));
      const out = new Map<string, PinRecord>();
      if (typeof parsed !== 'object' || parsed === null) return out;
      const pins = (parsed as { pins?: unknown }).pins;
      if (typeof pins !== 'object' || pins === null) return out;
      for (const [key, value] of Object.entries(pins as Record<string, unknown>)) {
        if (typeof value !== 'object' || value === null) continue;
        const { fingerprint, definition } = value as { fingerprint?: unknown; definition?: unknown };
        if (typeof fingerprint === 'string' && typeof definition === 'object' && definition !== null) {
          out.set(key, { fingerprint, definition: definition as PinnedDefinition });
        }
      }
      return out;
    } catch {
      return new Map();
    }
  }

  save(records: ReadonlyMap<string, PinRecord>): void {
    this.#pending = records;
    if (this.#timer) return;
    this.#timer = setTimeout(() => this.flush(), this.#delayMs);
    this.#timer.unref?.();
  }

  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const records = this.#pending;
    this.#pending = undefined;
    if (!records) return;
    try {
      mkdirSync(dirname(this.#file), { recursive: true });
      const tmp = `${this.#file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ version: 1, pins: Object.fromEntries(records) }), { mode: 0o600 });
      renameSync(tmp, this.#file);
    } catch {
      // Best effort: approvals stay in memory for this run.
    }
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
