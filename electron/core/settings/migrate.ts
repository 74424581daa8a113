// Our own migrations of the settings file, from any older schema version to the current one, and the salvage of a
// file with some bad parts: one invalid server entry, an unknown top-level key or a bad value costs that part only,
// never the whole file (every other server stays).
import type { z } from 'zod';
import { SETTINGS_SCHEMA_VERSION, ServerConfigSchema, SettingsSchema, type Settings } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import { isObject, type JsonObject } from '../json.js';
import { sanitizeText, truncate } from '../text.js';

type Migration = (raw: Record<string, unknown>) => Record<string, unknown>;

/** Step n upgrades a file at version n to n + 1. Version 0 is a file written before versioning. */
const MIGRATIONS: Record<number, Migration> = {
  0: (raw) => ({ ...raw, schemaVersion: 1 }),
};

/** One part of the settings file that was left out, and why. */
export interface DroppedPart {
  /** What it was, in plain words: `server "files" (Files)`, `unknown setting "theme"`, `approval for "x"`. */
  what: string;
  /** Why it was left out. */
  reason: string;
}

/** The usable settings of a file, and the parts that had to be left out. */
export interface SalvagedSettings {
  /** Valid settings built from every good part. */
  settings: Settings;
  /** Parts left out (empty when the file was fully valid). */
  dropped: DroppedPart[];
}

/** Brings a parsed file to the current schema version; throws config_invalid when it cannot (not an object, newer). */
export function upgradeSettingsDocument(raw: unknown): JsonObject {
  if (!isObject(raw)) throw new AppError('config_invalid', 'The settings file is not a JSON object');
  let doc: JsonObject = raw;
  let version = typeof doc['schemaVersion'] === 'number' ? doc['schemaVersion'] : 0;
  if (version > SETTINGS_SCHEMA_VERSION) {
    throw new AppError('config_invalid', `The settings file was written by a newer Switchboard (schema ${version})`);
  }
  while (version < SETTINGS_SCHEMA_VERSION) {
    const step = MIGRATIONS[version];
    if (!step) throw new AppError('config_invalid', `No migration from settings schema ${version}`);
    doc = step(doc);
    version += 1;
  }
  return doc;
}

/**
 * Upgrades a parsed settings object and keeps every valid part: each server entry is checked on its own (a bad one
 * or a repeated id is left out), unknown top-level keys are left out, a bad value of a known key falls back to its
 * default (a record keeps its good entries). Throws config_invalid only when the document cannot be used at all.
 */
export function salvageSettings(raw: unknown): SalvagedSettings {
  const doc = upgradeSettingsDocument(raw);
  const whole = SettingsSchema.safeParse(doc);
  if (whole.success) return { settings: whole.data, dropped: [] };

  const shape = SettingsSchema.shape as Record<string, z.ZodType>;
  const dropped: DroppedPart[] = [];
  const kept: JsonObject = {};
  for (const [key, value] of Object.entries(doc)) {
    const schema = shape[key];
    if (!schema) {
      dropped.push({ what: `unknown setting "${label(key)}"`, reason: 'Switchboard does not know this setting' });
      continue;
    }
    if (key === 'servers') {
      kept[key] = salvageServers(value, dropped);
      continue;
    }
    const one = schema.safeParse(value);
    if (one.success) {
      kept[key] = value;
      continue;
    }
    if (isObject(value)) {
      // A record (approvals): keep the entries that are valid on their own.
      const good: JsonObject = {};
      for (const [k, v] of Object.entries(value)) {
        const entry = schema.safeParse({ [k]: v });
        if (entry.success) good[k] = v;
        else dropped.push({ what: `${label(key)} entry "${label(k)}"`, reason: firstIssue(entry.error) });
      }
      kept[key] = good;
      continue;
    }
    dropped.push({ what: `setting "${label(key)}"`, reason: `${firstIssue(one.error)}; the default is used` });
  }
  const rebuilt = SettingsSchema.safeParse(kept);
  if (!rebuilt.success) {
    throw new AppError('config_invalid', `The settings file does not match the schema (${firstIssue(rebuilt.error)})`);
  }
  return { settings: rebuilt.data, dropped };
}

function salvageServers(value: unknown, dropped: DroppedPart[]): unknown[] {
  if (!Array.isArray(value)) {
    dropped.push({ what: 'the server list', reason: 'it is not a list' });
    return [];
  }
  const out: unknown[] = [];
  const seen = new Set<string>();
  value.forEach((entry, index) => {
    const what = describeServer(entry, index);
    const parsed = ServerConfigSchema.safeParse(entry);
    if (!parsed.success) {
      dropped.push({ what, reason: firstIssue(parsed.error) });
      return;
    }
    if (seen.has(parsed.data.id)) {
      dropped.push({ what, reason: `the id "${parsed.data.id}" is already used by an earlier entry` });
      return;
    }
    seen.add(parsed.data.id);
    out.push(entry);
  });
  return out;
}

function describeServer(entry: unknown, index: number): string {
  const id = isObject(entry) && typeof entry['id'] === 'string' ? entry['id'] : undefined;
  const name = isObject(entry) && typeof entry['name'] === 'string' ? entry['name'] : undefined;
  if (id === undefined) return `server entry ${index + 1}${name !== undefined ? ` (${label(name)})` : ''}`;
  return `server "${label(id)}"${name !== undefined && name !== id ? ` (${label(name)})` : ''}`;
}

/** Text from the file, made inert and short for a notice. */
function label(text: string): string {
  return truncate(sanitizeText(text), 80);
}

function firstIssue(error: z.ZodError): string {
  const first = error.issues[0];
  return first ? describeIssue(first) : 'invalid';
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  return truncate(sanitizeText(path ? `${path}: ${issue.message}` : issue.message), 200);
}
