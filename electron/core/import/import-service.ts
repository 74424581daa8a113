// Turns foreign config text into Switchboard definitions (preview, then apply) and back (export).
import { ServerConfigInputSchema, type ServerConfig, type ServerConfigInput } from '../../../shared/config.js';
import type { ImportEntry, ImportFormat, ImportPreview, ImportResult, ImportSecretPrompt } from '../../../shared/contract.js';
import { exportFileName, parseForeignConfig, type ParsedFile, type RawEntry } from './formats.js';
import { isObject } from '../json.js';
import type { ParsedConfigInput } from '../servers/secrets.js';
import { TimeSlice } from '../time-slice.js';
import { bearerTokenProblem, readAuthorizationValue, stripBearerScheme } from './bearer.js';

const INPUT_REF = /^\$\{input:([^}]+)\}$/;

/** Derives a valid server id from an entry's key. */
export function slugId(key: string): string {
  const slug = key
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 64);
  return slug.length > 0 ? slug : 'server';
}

interface Converted {
  input?: ServerConfigInput;
  /** The input after validation, when it is valid (so it is validated once). */
  parsed?: ParsedConfigInput;
  reasons: string[];
  prompts: ImportSecretPrompt[];
  /** An Authorization: Bearer header's token (or a prompted one once supplied), for the credential store. */
  bearer?: string;
  /** The entry carries a bearer token (given or prompted). */
  hasBearer?: boolean;
}

/** Converts one raw entry; secrets named in `secretValues` fill VS Code ${input:...} references. */
function convertEntry(entry: RawEntry, parsed: ParsedFile, id: string, secretValues: Record<string, string> | undefined): Converted {
  const reasons: string[] = [];
  const prompts: ImportSecretPrompt[] = [];
  const v = entry.value;
  let bearer: string | undefined;
  let hasBearer = false;
  if (!isObject(v)) return { reasons: ['The entry is not an object'], prompts };
  const declared = typeof v['type'] === 'string' ? v['type'] : undefined;
  let transport: ServerConfigInput['transport'];
  if (typeof v['command'] === 'string' && (declared === undefined || declared === 'stdio')) {
    const env: Record<string, string | { secret: true; value?: string }> = {};
    if (v['env'] !== undefined && !isObject(v['env'])) reasons.push('"env" must be an object');
    for (const [key, raw] of Object.entries(isObject(v['env']) ? v['env'] : {})) {
      if (typeof raw !== 'string') {
        reasons.push(`env ${key} must be a string`);
        continue;
      }
      const ref = INPUT_REF.exec(raw);
      if (ref && parsed.format === 'vscode') {
        const inputId = ref[1]!;
        prompts.push({ envKey: key, inputId, description: parsed.inputs.get(inputId)?.description ?? inputId });
        const value = secretValues?.[key];
        env[key] = value === undefined ? { secret: true } : { secret: true, value };
      } else env[key] = raw;
    }
    const args = v['args'] ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) reasons.push('"args" must be an array of strings');
    transport = {
      type: 'stdio',
      command: v['command'],
      args: Array.isArray(args) ? args.filter((a): a is string => typeof a === 'string') : [],
      env,
      ...(typeof v['cwd'] === 'string' ? { cwd: v['cwd'] } : {}),
    };
    if (v['envFile'] !== undefined) reasons.push('"envFile" is not supported; copy its values into env');
  } else if (typeof v['url'] === 'string' || typeof v['serverUrl'] === 'string') {
    const url = (typeof v['url'] === 'string' ? v['url'] : v['serverUrl']) as string;
    const type = declared === 'sse' || (declared === undefined && /\/sse\/?$/.test(url)) ? 'sse' : 'http';
    if (declared !== undefined && !['http', 'sse', 'streamable-http', 'streamableHttp'].includes(declared)) {
      reasons.push(`Unknown transport type "${declared}"`);
    }
    // Values under credential-like names (X-Api-Key, *-Token, …) are stored as secrets when the entry is saved.
    const headers: Record<string, string | { secret: true; value?: string }> = {};
    for (const [key, raw] of Object.entries(isObject(v['headers']) ? v['headers'] : {})) {
      if (typeof raw !== 'string') reasons.push(`header ${key} must be a string`);
      else if (key.toLowerCase() === 'authorization') {
        // Switchboard sets this header itself: a Bearer token becomes the server's stored bearer token.
        const auth = readAuthorizationValue(raw);
        if (auth.kind === 'unsupported') reasons.push(auth.reason);
        else if (auth.kind === 'bearer') bearer = auth.token;
        else if (parsed.format !== 'vscode') reasons.push(`header ${key} refers to an input, which only VS Code files declare`);
        else {
          prompts.push({ envKey: key, inputId: auth.inputId, description: parsed.inputs.get(auth.inputId)?.description ?? auth.inputId });
          const value = secretValues?.[key];
          if (value !== undefined) {
            const token = stripBearerScheme(value);
            const problem = bearerTokenProblem(token);
            if (problem) reasons.push(problem);
            else bearer = token;
          }
        }
        hasBearer = true;
      } else if (raw.includes('${input:')) {
        // A VS Code prompted header value becomes a secret header, filled with the value the person supplies.
        const ref = INPUT_REF.exec(raw.trim());
        if (!ref || parsed.format !== 'vscode') reasons.push(`header ${key} refers to an input in a way that cannot be imported`);
        else {
          prompts.push({ envKey: key, inputId: ref[1]!, description: parsed.inputs.get(ref[1]!)?.description ?? ref[1]! });
          const value = secretValues?.[key];
          headers[key] = value === undefined ? { secret: true } : { secret: true, value };
        }
      } else headers[key] = raw;
    }
    transport = { type, url, headers, ...(v['allowInsecureHttp'] === true ? { allowInsecureHttp: true } : {}) };
  } else {
    return { reasons: ['The entry has neither a "command" nor a "url"'], prompts };
  }
  const input: ServerConfigInput = { id, name: entry.key, transport, enabled: v['disabled'] !== true };
  const check = ServerConfigInputSchema.safeParse(input);
  if (!check.success) reasons.push(...check.error.issues.map((i) => `${i.path.slice(1).join('.') || 'entry'}: ${i.message}`));
  return {
    input,
    ...(check.success ? { parsed: check.data } : {}),
    reasons,
    prompts,
    ...(bearer !== undefined ? { bearer } : {}),
    ...(hasBearer ? { hasBearer } : {}),
  };
}

interface Planned {
  entry: ImportEntry;
  input?: ParsedConfigInput;
  bearer?: string;
}

/** Plans every chosen entry, in linear time, yielding to the event loop every few milliseconds. */
async function plan(
  parsed: ParsedFile,
  existing: Set<string>,
  secrets: Record<string, Record<string, string>>,
  keys?: string[],
): Promise<Planned[]> {
  const taken = new Set<string>();
  const chosen = keys ? new Set(keys) : undefined;
  const slice = new TimeSlice();
  const out: Planned[] = [];
  for (const raw of parsed.entries) {
    if (chosen && !chosen.has(raw.key)) continue;
    await slice.yieldIfDue();
    out.push(planOne(raw));
  }
  return out;

  function planOne(raw: RawEntry): Planned {
    const id = slugId(raw.key);
    const converted = convertEntry(raw, parsed, id, secrets[raw.key]);
    const reasons = [...converted.reasons];
    let status: ImportEntry['status'] = reasons.length > 0 ? 'invalid' : 'valid';
    if (status === 'valid' && existing.has(id)) {
      status = 'clash';
      reasons.push(`A server with id "${id}" already exists; it will not be overwritten`);
    } else if (status === 'valid' && taken.has(id)) {
      status = 'clash';
      reasons.push(`Another entry in this file also becomes "${id}"`);
    }
    if (status === 'valid') taken.add(id);
    const t = converted.input?.transport;
    const entry: ImportEntry = {
      key: raw.key,
      id,
      status,
      reasons,
      secretPrompts: converted.prompts,
      ...(t ? { transport: t.type, target: t.type === 'stdio' ? [t.command, ...(t.args ?? [])].join(' ') : t.url } : {}),
      ...(converted.hasBearer ? { bearerToken: true } : {}),
    };
    if (!converted.parsed || status !== 'valid') return { entry };
    return { entry, input: converted.parsed, ...(converted.bearer !== undefined ? { bearer: converted.bearer } : {}) };
  }
}

/** Previews an import: every entry with its status; nothing is saved. */
export async function previewImport(text: string, format: ImportFormat | undefined, existing: Set<string>): Promise<ImportPreview> {
  const parsed = parseForeignConfig(text, format);
  return { format: parsed.format, entries: (await plan(parsed, existing, {})).map((p) => p.entry) };
}

/** Plans an import of the chosen valid entries (validated); the caller saves the returned definitions and their bearer tokens (by id). */
export async function applyImport(
  text: string,
  format: ImportFormat | undefined,
  existing: Set<string>,
  keys: string[] | undefined,
  secrets: Record<string, Record<string, string>>,
): Promise<{ configs: ParsedConfigInput[]; bearers: Record<string, string>; result: ImportResult }> {
  const parsed = parseForeignConfig(text, format);
  const result: ImportResult = { added: [], skipped: [] };
  const configs: ParsedConfigInput[] = [];
  const bearers: Record<string, string> = {};
  // Only the chosen entries compete for ids, so an unpicked twin cannot block a picked one.
  for (const p of await plan(parsed, existing, secrets, keys)) {
    if (!p.input) {
      result.skipped.push({ key: p.entry.key, reason: p.entry.reasons.join('; ') });
      continue;
    }
    const missing = p.entry.secretPrompts.filter((s) => secrets[p.entry.key]?.[s.envKey] === undefined);
    if (missing.length > 0) {
      result.skipped.push({ key: p.entry.key, reason: `Missing secret value for ${missing.map((m) => m.envKey).join(', ')}` });
      continue;
    }
    configs.push(p.input);
    if (p.bearer !== undefined) bearers[p.input.id] = p.bearer;
  }
  return { configs, bearers, result };
}

/** Headers for an export: secret values never written (a VS Code input to prompt for, or an empty value). */
function exportHeaders(
  c: ServerConfig,
  format: ImportFormat,
  inputs: { type: 'promptString'; id: string; description: string; password: true }[],
): Record<string, string> {
  const out: Record<string, string> = {};
  if (c.transport.type === 'stdio') return out;
  for (const [name, v] of Object.entries(c.transport.headers)) {
    if (typeof v === 'string') out[name] = v;
    else if (format === 'vscode') {
      const inputId = `${c.id}-${name}`.toLowerCase();
      inputs.push({ type: 'promptString', id: inputId, description: `${name} header for ${c.name}`, password: true });
      out[name] = `\${input:${inputId}}`;
    } else out[name] = '';
  }
  return out;
}

/** Writes definitions in another app's format; secret values are never written. */
export function exportServers(
  configs: readonly ServerConfig[],
  format: ImportFormat,
): { format: ImportFormat; fileName: string; text: string } {
  const servers: Record<string, unknown> = {};
  const inputs: { type: 'promptString'; id: string; description: string; password: true }[] = [];
  for (const c of configs) {
    const t = c.transport;
    if (t.type === 'stdio') {
      const env: Record<string, string> = {};
      for (const [key, v] of Object.entries(t.env)) {
        if (typeof v === 'string') env[key] = v;
        else if (format === 'vscode') {
          const inputId = `${c.id}-${key}`.toLowerCase();
          inputs.push({ type: 'promptString', id: inputId, description: `${key} for ${c.name}`, password: true });
          env[key] = `\${input:${inputId}}`;
        } else env[key] = '';
      }
      servers[c.id] = {
        ...(c.enabled ? {} : { disabled: true }),
        ...(format === 'vscode' ? { type: 'stdio' } : {}),
        command: t.command,
        args: t.args,
        ...(Object.keys(env).length > 0 ? { env } : {}),
        ...(t.cwd !== undefined ? { cwd: t.cwd } : {}),
      };
    } else {
      servers[c.id] = {
        ...(c.enabled ? {} : { disabled: true }),
        type: t.type,
        url: t.url,
        ...(Object.keys(t.headers).length > 0 ? { headers: exportHeaders(c, format, inputs) } : {}),
        ...(t.allowInsecureHttp ? { allowInsecureHttp: true } : {}),
      };
    }
  }
  const doc = format === 'vscode' ? { ...(inputs.length > 0 ? { inputs } : {}), servers } : { mcpServers: servers };
  return { format, fileName: exportFileName(format), text: `${JSON.stringify(doc, null, 2)}\n` };
}
