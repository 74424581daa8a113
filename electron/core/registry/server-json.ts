// The registry API's response shapes and the server.json format, as strict zod validators with bounds on every
// string and list. A page is checked entry by entry: a malformed entry is skipped with its reason, never the page.
import { z } from 'zod';
import type { SkippedEntry } from '../../../shared/domains/registry.js';
import { isObject } from '../json.js';
import { sanitizeText, truncate } from '../text.js';

/** Most entries read from one page. */
export const MAX_PAGE_ENTRIES = 200;

const text = (max: number) => z.string().max(max);
const INPUT_FORMATS = ['string', 'number', 'boolean', 'filepath'] as const;

/** An input the person may be asked for (server.json `Input`). */
const InputShape = {
  description: text(4000).optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(INPUT_FORMATS).optional(),
  value: text(4096).optional(),
  isSecret: z.boolean().optional(),
  default: text(4096).optional(),
  placeholder: text(1000).optional(),
  choices: z.array(text(1000)).max(200).optional(),
};

/** Schema for server.json `Input`. */
export const InputSchema = z.object(InputShape);
const variables = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'Variable names use letters, digits and "_"'), InputSchema)
  .refine((v) => Object.keys(v).length <= 50, 'At most 50 variables')
  .optional();

/** Schema for a positional argument. */
export const PositionalArgumentSchema = z.object({
  ...InputShape,
  type: z.literal('positional'),
  valueHint: text(200).optional(),
  isRepeated: z.boolean().optional(),
  variables,
});

/** Schema for a named (`--flag value`) argument. */
export const NamedArgumentSchema = z.object({
  ...InputShape,
  type: z.literal('named'),
  name: z.string().min(1).max(200),
  isRepeated: z.boolean().optional(),
  variables,
});

/** Schema for any argument. */
export const ArgumentSchema = z.discriminatedUnion('type', [PositionalArgumentSchema, NamedArgumentSchema]);

/** Schema for an environment variable or header (`KeyValueInput`). */
export const KeyValueInputSchema = z.object({ ...InputShape, name: z.string().min(1).max(200), variables });

const url = z.string().min(1).max(2048);

/** Schema for a package's transport. */
export const PackageTransportSchema = z.object({
  type: z.enum(['stdio', 'streamable-http', 'sse']),
  url: url.optional(),
  headers: z.array(KeyValueInputSchema).max(50).optional(),
});

/** Schema for one post-install step of a package: shown as a checklist, never executed. */
export const PostInstallInstructionSchema = z.object({
  description: z.string().min(1).max(2000),
  command: text(2000).optional(),
  documentation: url.optional(),
  optional: z.boolean().optional(),
});

/** Schema for a package. */
export const PackageSchema = z.object({
  registryType: z.string().min(1).max(50),
  registryBaseUrl: url.optional(),
  identifier: z.string().min(1).max(1000),
  version: z.string().min(1).max(255).optional(),
  fileSha256: z
    .string()
    .regex(/^[a-f0-9]{64}$/)
    .optional(),
  runtimeHint: text(50).optional(),
  transport: PackageTransportSchema,
  runtimeArguments: z.array(ArgumentSchema).max(100).optional(),
  packageArguments: z.array(ArgumentSchema).max(100).optional(),
  environmentVariables: z.array(KeyValueInputSchema).max(100).optional(),
  postInstallInstructions: z.array(PostInstallInstructionSchema).max(20).optional(),
});

/** Schema for a remote (hosted) transport. */
export const RemoteSchema = z.object({
  type: z.enum(['streamable-http', 'sse']),
  url,
  headers: z.array(KeyValueInputSchema).max(50).optional(),
  variables,
});

/** Schema for a server.json document (`ServerDetail`). */
export const ServerJsonSchema = z.object({
  $schema: text(500).optional(),
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'A server name is reverse-DNS "namespace/name"'),
  description: text(4000).optional(),
  title: text(200).optional(),
  version: z.string().min(1).max(255),
  repository: z.object({ url, source: text(100).optional(), id: text(200).optional(), subfolder: text(500).optional() }).optional(),
  websiteUrl: url.optional(),
  packages: z.array(PackageSchema).max(30).optional(),
  remotes: z.array(RemoteSchema).max(30).optional(),
});

/** The official registry's metadata about one version of an entry. */
export const OfficialMetaSchema = z.object({
  status: z.enum(['active', 'deprecated', 'deleted']).optional(),
  statusMessage: text(1000).optional(),
  statusChangedAt: text(100).optional(),
  publishedAt: text(100).optional(),
  updatedAt: text(100).optional(),
  isLatest: z.boolean().optional(),
});

/** Key of the registry-managed metadata in `_meta`. */
export const OFFICIAL_META_KEY = 'io.modelcontextprotocol.registry/official';

/** A server.json document after validation. */
export type ServerJson = z.infer<typeof ServerJsonSchema>;
/** A package after validation. */
export type ServerPackage = z.infer<typeof PackageSchema>;
/** A remote after validation. */
export type ServerRemote = z.infer<typeof RemoteSchema>;
/** An argument after validation. */
export type ServerArgument = z.infer<typeof ArgumentSchema>;
/** An input after validation. */
export type ServerInput = z.infer<typeof InputSchema>;
/** An env var or header after validation. */
export type ServerKeyValue = z.infer<typeof KeyValueInputSchema>;
/** The official metadata after validation. */
export type OfficialMeta = z.infer<typeof OfficialMetaSchema>;

/** One validated entry of a registry response: the server.json and the registry's metadata about it. */
export interface RegistryRecord {
  /** The server.json. */
  server: ServerJson;
  /** `_meta["io.modelcontextprotocol.registry/official"]`, when valid. */
  official: OfficialMeta;
}

/** A validated page of the list endpoint. */
export interface RegistryPage {
  /** Usable entries, in order. */
  records: RegistryRecord[];
  /** Entries left out, with reasons. */
  skipped: SkippedEntry[];
  /** Next cursor, when there is more. */
  nextCursor?: string;
}

/** The first few issues of a failed parse, in plain words. */
export function describeIssues(error: z.ZodError, max = 3): string {
  const parts = error.issues.slice(0, max).map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`);
  const more = error.issues.length > max ? ` (and ${error.issues.length - max} more)` : '';
  return truncate(sanitizeText(parts.join('; ') + more), 500);
}

/** snake_case field names of the 2025-07-09 schema and their camelCase names from 2025-09-16 on. */
const CAMEL: Readonly<Record<string, string>> = {
  registry_type: 'registryType',
  registry_name: 'registryType',
  registry_base_url: 'registryBaseUrl',
  file_sha256: 'fileSha256',
  runtime_hint: 'runtimeHint',
  runtime_arguments: 'runtimeArguments',
  package_arguments: 'packageArguments',
  environment_variables: 'environmentVariables',
  is_required: 'isRequired',
  is_secret: 'isSecret',
  value_hint: 'valueHint',
  is_repeated: 'isRepeated',
  website_url: 'websiteUrl',
  post_install_instructions: 'postInstallInstructions',
};
/** How deep the renaming walks (server.json nests at most a few levels). */
const MAX_NORMALIZE_DEPTH = 8;

function camelKeys(value: unknown, depth: number): unknown {
  if (depth > MAX_NORMALIZE_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => camelKeys(v, depth + 1));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // Names inside `variables` are the publisher's own and are kept as written.
    const name = CAMEL[key] ?? key;
    if (!(name in out) || name === key)
      out[name] = key === 'variables' && isObject(v) ? mapValues(v, (x) => camelKeys(x, depth + 2)) : camelKeys(v, depth + 1);
  }
  return out;
}

function mapValues(obj: Record<string, unknown>, f: (v: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, f(v)]));
}

/**
 * A server.json of any dated schema (2025-07-09 … 2025-12-11) in the current shape: snake_case names become
 * camelCase, a package without a transport runs over stdio (as the first schema implied), a package `name` is its
 * identifier, and a 2025-07-09 remote's `transport_type` ("streamable" / "sse") becomes its `type`. Anything else is
 * left for the strict schema to judge.
 */
export function normalizeServerJson(raw: unknown): unknown {
  const server = camelKeys(raw, 0);
  if (!isObject(server)) return server;
  const packages = Array.isArray(server['packages'])
    ? server['packages'].map((p: unknown) => {
        if (!isObject(p)) return p;
        const pkg: Record<string, unknown> = { ...p };
        if (pkg['identifier'] === undefined && typeof pkg['name'] === 'string') pkg['identifier'] = pkg['name'];
        if (pkg['transport'] === undefined) pkg['transport'] = { type: 'stdio' };
        else if (typeof pkg['transport'] === 'string') pkg['transport'] = { type: pkg['transport'] };
        delete pkg['name'];
        return pkg;
      })
    : server['packages'];
  const remotes = Array.isArray(server['remotes'])
    ? server['remotes'].map((r: unknown) => {
        if (!isObject(r) || r['type'] !== undefined || typeof r['transport_type'] !== 'string') return r;
        const { transport_type: kind, ...rest } = r;
        return { ...rest, type: kind === 'streamable' ? 'streamable-http' : kind };
      })
    : server['remotes'];
  const versionDetail = server['version_detail'];
  const version = server['version'] ?? (isObject(versionDetail) ? versionDetail['version'] : undefined);
  return {
    ...server,
    ...(packages !== undefined ? { packages } : {}),
    ...(remotes !== undefined ? { remotes } : {}),
    ...(version !== undefined ? { version } : {}),
  };
}

/** A name to report for a skipped entry, if it has a readable one. */
function nameOf(raw: unknown): string | undefined {
  const server = isObject(raw) && isObject(raw['server']) ? raw['server'] : raw;
  const name = isObject(server) ? server['name'] : undefined;
  return typeof name === 'string' && name.length > 0 ? truncate(sanitizeText(name), 200) : undefined;
}

/** Validates one `ServerResponse` (`{ server, _meta }`). */
export function parseRecord(raw: unknown): { ok: true; record: RegistryRecord } | { ok: false; skipped: SkippedEntry } {
  const name = nameOf(raw);
  const skip = (reason: string) => ({ ok: false as const, skipped: { ...(name !== undefined ? { name } : {}), reason } });
  if (!isObject(raw) || !isObject(raw['server'])) return skip('The entry has no "server" object');
  const legacy = raw['server'];
  const server = ServerJsonSchema.safeParse(normalizeServerJson(legacy));
  if (!server.success) return skip(describeIssues(server.error));
  // Before 2025-09-29 the status and the registry's metadata lived inside server.json; the response's _meta wins.
  const inner = isObject(legacy['_meta']) ? legacy['_meta'][OFFICIAL_META_KEY] : undefined;
  const outer = isObject(raw['_meta']) ? raw['_meta'][OFFICIAL_META_KEY] : undefined;
  const meta = {
    ...(typeof legacy['status'] === 'string' ? { status: legacy['status'] } : {}),
    ...(isObject(inner) ? inner : {}),
    ...(isObject(outer) ? outer : {}),
  };
  const official = OfficialMetaSchema.safeParse(meta);
  return { ok: true, record: { server: server.data, official: official.success ? official.data : {} } };
}

/** Validates a list response; throws a plain-words Error when its overall shape is wrong. */
export function parsePage(raw: unknown, requestCursor?: string): RegistryPage {
  if (!isObject(raw) || !Array.isArray(raw['servers'])) throw new Error('The response has no "servers" list');
  const records: RegistryRecord[] = [];
  const skipped: SkippedEntry[] = [];
  const entries = raw['servers'];
  for (const entry of entries.slice(0, MAX_PAGE_ENTRIES)) {
    const parsed = parseRecord(entry);
    if (parsed.ok) records.push(parsed.record);
    else skipped.push(parsed.skipped);
  }
  if (entries.length > MAX_PAGE_ENTRIES) {
    skipped.push({ reason: `The page held ${entries.length} entries; only the first ${MAX_PAGE_ENTRIES} were read` });
  }
  const metadata = isObject(raw['metadata']) ? raw['metadata'] : {};
  const next = metadata['nextCursor'] ?? metadata['next_cursor'];
  const page: RegistryPage = { records, skipped };
  // A cursor that does not move on (or is absurdly long) ends paging instead of looping.
  if (typeof next === 'string' && next !== '' && next.length <= 4096 && next !== requestCursor) page.nextCursor = next;
  return page;
}

/**
 * Reads pasted server.json text: a bare server.json or a registry `ServerResponse` (`{ server, _meta }`).
 * Throws a plain-words Error when it is neither.
 */
export function parseServerJsonValue(raw: unknown): RegistryRecord {
  const wrapped = isObject(raw) && isObject(raw['server']) ? raw : { server: raw };
  const parsed = parseRecord(wrapped);
  if (!parsed.ok) throw new Error(`Not a valid server.json: ${parsed.skipped.reason}`);
  return parsed.record;
}
