// History entries as a collection file, the format `switchboard run` reads (docs/collections.md): each call by its
// server and original tool name with the arguments it was made with, expecting how it ended, and (as picked) its
// shown text or top-level structured-content fields. Only what the history holds goes in: no server definition, so
// no environment value, header or token; a call whose arguments the history cut is refused rather than exported
// with `{}`.
import type { ExportCollectionArgs, HistoryEntry, TestAssertion } from '../../../shared/domains/calls.js';
import { AppError } from '../../../shared/errors.js';
import { isObject } from '../json.js';
import { exportSlug } from './export-test.js';

/** Where the export reads from. */
export interface CollectionSources {
  /** A history entry by call id. */
  entry(callId: string): HistoryEntry | undefined;
  /** The full structured content of a call whose envelope is still kept. */
  structuredContent(callId: string): unknown;
}

/** One exported call, in the collection format. */
export interface ExportedCall {
  name: string;
  tool: string;
  server: string;
  args: Record<string, unknown>;
  expect: {
    status: HistoryEntry['status'];
    noIsError?: boolean;
    textContains?: string;
    jsonPath?: Record<string, unknown>;
  };
}

const label = (entry: HistoryEntry): string => entry.savedAs ?? entry.originalName;

/** The structured content of a call: the kept envelope's, else the history's bounded copy. */
function structuredOf(src: CollectionSources, entry: HistoryEntry): Record<string, unknown> | undefined {
  const kept = src.structuredContent(entry.callId);
  if (isObject(kept)) return kept;
  if (entry.presentation.structured === undefined || entry.presentation.structuredTruncated === true) return undefined;
  try {
    const parsed: unknown = JSON.parse(entry.presentation.structured);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON path for a top-level field, quoted when the name is not a plain identifier. */
function fieldPath(field: string): string {
  // The collection's path reader unescapes `\x` to `x`, so only the quote and the backslash need escaping.
  return /^[A-Za-z_$][\w$]*$/.test(field) ? `$.${field}` : `$["${field.replace(/["\\]/g, '\\$&')}"]`;
}

function exportedCall(src: CollectionSources, entry: HistoryEntry, assertion: TestAssertion): ExportedCall {
  if (entry.cut?.arguments)
    throw new AppError('invalid_request', `The history did not keep the arguments of "${label(entry)}", so it cannot be run again.`);
  const expect: ExportedCall['expect'] = { status: entry.status };
  if (entry.status === 'ok') expect.noIsError = true;
  if (assertion.text === true) {
    if (entry.presentation.text === '') throw new AppError('invalid_request', `Call "${label(entry)}" showed no text to check.`);
    expect.textContains = entry.presentation.text;
  }
  const fields = assertion.fields ?? [];
  if (fields.length > 0) {
    const structured = structuredOf(src, entry);
    if (!structured)
      throw new AppError('invalid_request', `The structured content of "${label(entry)}" is no longer kept whole; check its text instead.`);
    const paths: Record<string, unknown> = {};
    for (const field of fields) {
      if (!Object.hasOwn(structured, field)) throw new AppError('invalid_request', `"${label(entry)}" has no structured field "${field}".`);
      paths[fieldPath(field)] = structured[field];
    }
    expect.jsonPath = paths;
  }
  return { name: label(entry), tool: entry.originalName, server: entry.serverId, args: entry.arguments, expect };
}

/** The collection's file name for a title. */
export function collectionFileName(title: string): string {
  return `${exportSlug(title)}.collection.json`;
}

/** calls.exportCollection: the calls, in the order given, as one collection (JSON text). */
export function exportCallsAsCollection(src: CollectionSources, args: ExportCollectionArgs): { fileName: string; text: string } {
  const entries = args.callIds.map((callId) => {
    const entry = src.entry(callId);
    if (!entry) throw new AppError('not_found', `No call ${callId} in the history`);
    return entry;
  });
  const calls = entries.map((entry) => {
    // By default a call checks how it ended and, when it succeeded, its shown text.
    const assertion = args.assertions?.find((a) => a.callId === entry.callId) ?? { callId: entry.callId, text: entry.status === 'ok' };
    return exportedCall(src, entry, assertion);
  });
  const name =
    args.name?.trim() ||
    (entries.length === 1 ? label(entries[0]!) : entries.some((e) => e.savedAs !== undefined) ? 'Saved calls' : 'Calls');
  return { fileName: collectionFileName(name), text: `${JSON.stringify({ name, calls }, null, 2)}\n` };
}
