// Saved calls as Playwright tests: writes a spec that uses the switchboard/testing kit to re-create each call's
// server, call the tool through the UI with the saved arguments and assert on the shown result (its exact text, or
// the structured-content fields the person picked). Secrets stay out of the file: a secret environment value, a
// credential-looking header and a bearer token are read from named environment variables with `requireEnv`, which
// fails the spec with a clear message when one is unset. Every string from the person or a server becomes a string
// literal through one escaper, so no quote, backtick, `${`, comment end or line separator can leave it.
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, isAbsolute, sep } from 'node:path';
import { ServerConfigSchema, type ServerConfig } from '../../../shared/config.js';
import type { ExportTestArgs, HistoryEntry, TestAssertion } from '../../../shared/domains/calls.js';
import { AppError } from '../../../shared/errors.js';
import { isObject } from '../json.js';

/** What the spec is written from, per call. */
export interface SpecCall {
  /** The history entry (arguments, tool, presentation). */
  entry: HistoryEntry;
  /** The server as stored (secret env values are references only). */
  server: ServerConfig;
  /** The full structured content, when the envelope is still kept. */
  structuredContent?: unknown;
  /** What to assert. */
  assertion: TestAssertion;
  /** The server signs in with a bearer token (read from the environment in the spec). */
  bearer: boolean;
}

/** A TypeScript string literal holding exactly `s`. */
export function tsString(s: string): string {
  // JSON's escaping is valid TypeScript; line and paragraph separators are escaped as well so that no tool ever
  // sees a raw line break inside the literal.
  return JSON.stringify(s)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A TypeScript expression building the JSON value `v` (no key can set a prototype). */
export function tsValue(v: unknown, indent = ''): string {
  if (v === null || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'string') return tsString(v);
  const inner = `${indent}  `;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => `${inner}${tsValue(x, inner)}`).join(',\n')},\n${indent}]`;
  }
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return '{}';
    // `__proto__: …` in a literal would set the prototype; a computed key is an ordinary property.
    const key = (k: string): string => (k === '__proto__' ? `[${tsString(k)}]` : tsString(k));
    return `{\n${keys.map((k) => `${inner}${key(k)}: ${tsValue(v[k], inner)}`).join(',\n')},\n${indent}}`;
  }
  return 'null';
}

const SENSITIVE_HEADER = /auth|token|key|secret|cookie|session|passw|credential|signature/i;

/** An environment variable name derived from parts (upper case, letters, digits and "_"). */
export function envName(...parts: string[]): string {
  const name = parts
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
  return /^[0-9]/.test(name) ? `_${name}` : name || 'SECRET';
}

/** The environment variables a spec for `server` needs, with what each is for. */
function secretsOf(
  server: ServerConfig,
  bearer: boolean,
): { env: Map<string, string>; headers: Map<string, string>; query: Map<string, string> } {
  const env = new Map<string, string>();
  const headers = new Map<string, string>();
  const query = new Map<string, string>();
  const t = server.transport;
  if (t.type === 'stdio') {
    for (const [k, v] of Object.entries(t.env)) if (typeof v !== 'string') env.set(k, k);
  } else {
    for (const [name, v] of Object.entries(t.headers))
      if (typeof v !== 'string' || SENSITIVE_HEADER.test(name)) headers.set(name, envName(server.id, name));
    // A key or token in the address's query (?api_key=…) is a secret too.
    for (const name of new URL(t.url).searchParams.keys())
      if (SENSITIVE_HEADER.test(name)) query.set(name, envName(server.id, 'URL', name));
  }
  if (bearer) headers.set('', envName(server.id, 'BEARER_TOKEN'));
  return { env, headers, query };
}

/**
 * A TypeScript expression for `url` with the values of the query parameters in `query` read from the environment
 * (URL-encoded), or undefined when it has none.
 */
function urlExpr(url: string, query: Map<string, string>, serverId: string): string | undefined {
  if (query.size === 0) return undefined;
  const parsed = new URL(url);
  const marker = (i: number): string => `SWITCHBOARDSECRET${i}X`;
  const names = [...query.keys()];
  names.forEach((name, i) => parsed.searchParams.set(name, marker(i)));
  let expr = '';
  let rest = parsed.href;
  names.forEach((name, i) => {
    const at = rest.indexOf(marker(i));
    const env = query.get(name)!;
    expr += `${tsString(rest.slice(0, at))} + encodeURIComponent(requireEnv(${tsString(env)}, ${tsString(`URL parameter ${name} of server ${serverId}`)})) + `;
    rest = rest.slice(at + marker(i).length);
  });
  return `${expr}${tsString(rest)}`;
}

/**
 * A path from the exporting machine as an expression that holds on the machine running the spec: this Node for an
 * absolute `node` command (process.execPath), a path under the home folder from homedir(); undefined to keep it as is.
 */
function portablePath(value: string, home: string, command: boolean): string | undefined {
  if (command && isAbsolute(value) && /^node(\.exe)?$/i.test(basename(value))) return 'process.execPath';
  if (home.length > 1 && value.startsWith(home + sep)) return `join(homedir(), ${tsString(value.slice(home.length + 1))})`;
  return undefined;
}

/** The server config expression: the stored definition with every secret read from the environment. */
function configExpr(server: ServerConfig, bearer: boolean, indent: string, home: string): { text: string; usesHome: boolean } {
  const { env, headers, query } = secretsOf(server, bearer);
  const t = server.transport;
  const transport: Record<string, unknown> = { ...t };
  const secretRefs = new Map<string, string>(); // placeholder → expression
  const nonce = randomUUID();
  let usesHome = false;
  let n = 0;
  const placeholder = (expr: string): string => {
    const p = `\u0000secret-${nonce}-${n++}\u0000`;
    secretRefs.set(p, expr);
    return p;
  };
  if (t.type === 'stdio') {
    const outEnv: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(t.env)) {
      const name = env.get(k);
      outEnv[k] =
        typeof v === 'string' || name === undefined
          ? v
          : { secret: true, value: placeholder(`requireEnv(${tsString(name)}, ${tsString(`${k} of server ${server.id}`)})`) };
    }
    transport['env'] = outEnv;
    // Machine-specific paths (this Node, the home folder) become expressions, so the spec runs elsewhere too.
    const portable = (value: string, command = false): string => {
      const expr = portablePath(value, home, command);
      if (expr === undefined) return value;
      if (expr !== 'process.execPath') usesHome = true;
      return placeholder(expr);
    };
    transport['command'] = portable(t.command, true);
    transport['args'] = t.args.map((a) => portable(a));
    if (t.cwd !== undefined) transport['cwd'] = portable(t.cwd);
  } else {
    const outHeaders: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(t.headers)) {
      const name = headers.get(k);
      // A secret header (stored in the credential store) is re-entered from the environment, never written out.
      outHeaders[k] =
        name === undefined
          ? v
          : { secret: true, value: placeholder(`requireEnv(${tsString(name)}, ${tsString(`header ${k} of server ${server.id}`)})`) };
    }
    transport['headers'] = outHeaders;
    const url = urlExpr(t.url, query, server.id);
    if (url !== undefined) transport['url'] = placeholder(url);
  }
  // Only what differs from a new server's defaults, so the spec reads like what the person entered.
  const defaults: Record<string, unknown> = ServerConfigSchema.parse({ id: server.id, name: server.name, transport: t });
  const written: Record<string, unknown> = { id: server.id, name: server.name, transport };
  for (const [k, v] of Object.entries(server)) {
    if (!(k in written) && JSON.stringify(v) !== JSON.stringify(defaults[k])) written[k] = v;
  }
  let text = tsValue(written, indent);
  // Placeholders are whole string literals of their own; swap each for its expression.
  for (const [p, expr] of secretRefs) text = text.replace(tsString(p), expr);
  return { text, usesHome };
}

/** The top-level structured fields of a call, from the full envelope or the (unshortened) presentation. */
function structuredOf(call: SpecCall): Record<string, unknown> | undefined {
  if (isObject(call.structuredContent)) return call.structuredContent;
  const shown = call.entry.presentation;
  if (shown.structured === undefined || shown.structuredTruncated) return undefined;
  try {
    const parsed: unknown = JSON.parse(shown.structured);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function assertionLines(call: SpecCall, indent: string): string[] {
  const { entry, assertion } = call;
  const lines = [`${indent}expect(shown.status, 'the call succeeds as it did when saved').toBe(${tsString(entry.status)});`];
  if (assertion.text) {
    if (entry.presentation.truncated) {
      throw new AppError(
        'invalid_request',
        `The text of call "${label(entry)}" was shortened when shown, so it cannot be asserted exactly; pick structured fields instead.`,
      );
    }
    lines.push(`${indent}expect(shown.text).toBe(${tsString(entry.presentation.text)});`);
  }
  const fields = assertion.fields ?? [];
  if (fields.length > 0) {
    const structured = structuredOf(call);
    if (!structured) {
      throw new AppError('invalid_request', `Call "${label(entry)}" has no structured content kept in full to assert on.`);
    }
    lines.push(`${indent}const structured = shown.structured as Record<string, unknown>;`);
    for (const f of fields) {
      if (!Object.prototype.hasOwnProperty.call(structured, f)) {
        throw new AppError('invalid_request', `Call "${label(entry)}" has no structured field ${JSON.stringify(f)}.`);
      }
      lines.push(`${indent}expect(structured[${tsString(f)}]).toEqual(${tsValue(structured[f], indent)});`);
    }
  }
  return lines;
}

function label(entry: HistoryEntry): string {
  return entry.savedAs ?? entry.tool;
}

/** The spec file's text for `calls` (one test each, in the order given). */
export function renderPlaywrightSpec(calls: readonly SpecCall[], title: string, home: string = homedir()): string {
  const needsEnv = calls.some((c) => {
    const s = secretsOf(c.server, c.bearer);
    return s.env.size > 0 || s.headers.size > 0 || s.query.size > 0;
  });
  const out: string[] = [
    '// Written by Switchboard ("Export as Playwright test"): re-creates each server, calls the tool through the UI',
    '// with the saved arguments and checks the result. Secrets are read from environment variables, never stored here.',
    `import { expect, ${needsEnv ? 'requireEnv, ' : ''}test } from 'switchboard/testing';`,
    '',
    `test.describe(${tsString(title)}, () => {`,
  ];
  let usesHome = false;
  calls.forEach((call, i) => {
    const { entry, server, bearer } = call;
    if (i > 0) out.push('');
    out.push(`  test(${tsString(`${label(entry)} (${entry.tool})`)}, async ({ switchboard${bearer ? ', bridge' : ''} }) => {`);
    const config = configExpr(server, bearer, '    ', home);
    usesHome ||= config.usesHome;
    out.push(`    await switchboard.setUpServer(${config.text});`);
    if (bearer) {
      const name = secretsOf(server, true).headers.get('')!;
      out.push(
        `    await bridge['auth.setBearer']({ id: ${tsString(server.id)}, token: requireEnv(${tsString(name)}, ${tsString(`bearer token of server ${server.id}`)}) });`,
      );
    }
    out.push(`    await switchboard.connect(${tsString(server.id)});`);
    out.push(`    const shown = await switchboard.callTool(${tsString(entry.tool)}, ${tsValue(entry.arguments, '    ')});`);
    out.push(...assertionLines(call, '    '));
    out.push('  });');
  });
  out.push('});', '');
  // Paths under the home folder are rebuilt from it on the machine running the spec.
  if (usesHome) out.splice(2, 0, "import { homedir } from 'node:os';", "import { join } from 'node:path';");
  return out.join('\n');
}

/** The file-name stem for an export's title (letters, digits, "-"; `saved-calls` when nothing is left). */
export function exportSlug(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || 'saved-calls';
}

/** A file name for the spec, from the title. */
export function specFileName(title: string): string {
  return `${exportSlug(title)}.spec.ts`;
}

/** What the exporter needs of the host. */
export interface ExportSources {
  /** A history entry by call id. */
  entry(callId: string): HistoryEntry | undefined;
  /** A server definition by id (throws not_found). */
  server(id: string): ServerConfig;
  /** The full structured content of a call, when its envelope is still kept. */
  structuredContent(callId: string): unknown;
  /** Whether the server signs in with a bearer token. */
  usesBearer(id: string): Promise<boolean>;
}

/** calls.exportTest: the spec for the given calls. */
export async function exportCallsAsTest(src: ExportSources, args: ExportTestArgs): Promise<{ fileName: string; text: string }> {
  const calls: SpecCall[] = [];
  for (const callId of args.callIds) {
    const entry = src.entry(callId);
    if (!entry) throw new AppError('not_found', `No call ${callId} in the history`);
    if (entry.status !== 'ok') {
      throw new AppError('invalid_request', `Call "${label(entry)}" did not succeed (${entry.status}); export calls that did.`);
    }
    const asked = args.assertions?.find((a) => a.callId === callId);
    const assertion: TestAssertion = asked ?? { callId, text: true };
    if (!assertion.text && (assertion.fields ?? []).length === 0) {
      throw new AppError('invalid_request', `Pick what to check for call "${label(entry)}": its text or at least one structured field.`);
    }
    calls.push({
      entry,
      server: src.server(entry.serverId),
      structuredContent: src.structuredContent(callId),
      assertion,
      bearer: await src.usesBearer(entry.serverId),
    });
  }
  const title =
    args.title?.trim() ||
    (calls.length === 1 ? label(calls[0]!.entry) : calls.find((c) => c.entry.savedAs !== undefined) ? 'Saved calls' : 'Calls');
  return { fileName: specFileName(title), text: renderPlaywrightSpec(calls, title) };
}
