// What differs between two server definitions' launches, in plain words: command, arguments, working directory,
// environment names and plain values, URL, headers. Secret values are never compared or shown, only their names.
import type { ServerConfig, ServerConfigInput } from '../../../shared/config.js';
import { sanitizeText, truncate } from '../text.js';

type Definition = ServerConfig | ServerConfigInput;

const shown = (s: string, max = 300): string => truncate(sanitizeText(s), max);
const argvText = (command: string, args: readonly string[]): string =>
  shown([command, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' '), 600);

/** Plain-words changes from `before` to `after`; empty when the launches are the same. */
export function describeChanges(before: Definition, after: Definition): string[] {
  const changes: string[] = [];
  if (before.name !== after.name) changes.push(`Name: ${shown(before.name, 100)} → ${shown(after.name, 100)}`);
  const a = before.transport;
  const b = after.transport;
  if (a.type !== b.type) {
    changes.push(`Transport: ${a.type} → ${b.type}`);
    return changes;
  }
  if (a.type === 'stdio' && b.type === 'stdio') {
    const argsA = a.args ?? [];
    const argsB = b.args ?? [];
    if (a.command !== b.command || JSON.stringify(argsA) !== JSON.stringify(argsB)) {
      changes.push(`Command: ${argvText(a.command, argsA)} → ${argvText(b.command, argsB)}`);
    }
    if ((a.cwd ?? '') !== (b.cwd ?? '')) changes.push(`Working directory: ${shown(a.cwd ?? '(none)')} → ${shown(b.cwd ?? '(none)')}`);
    const envA = a.env ?? {};
    const envB = b.env ?? {};
    for (const key of Object.keys(envB)) if (!(key in envA)) changes.push(`Environment: adds ${shown(key, 100)}`);
    for (const key of Object.keys(envA)) if (!(key in envB)) changes.push(`Environment: removes ${shown(key, 100)}`);
    for (const key of Object.keys(envA)) {
      if (!(key in envB)) continue;
      const va = envA[key];
      const vb = envB[key];
      const secretA = typeof va !== 'string';
      const secretB = typeof vb !== 'string';
      if (secretA !== secretB) changes.push(`Environment: ${shown(key, 100)} becomes ${secretB ? 'a secret' : 'a plain value'}`);
      else if (!secretA && va !== vb) changes.push(`Environment: ${shown(key, 100)} changes`);
    }
    if ((a.inheritEnv ?? false) !== (b.inheritEnv ?? false))
      changes.push(`Inherit the whole environment: ${String(a.inheritEnv ?? false)} → ${String(b.inheritEnv ?? false)}`);
    return changes;
  }
  if (a.type !== 'stdio' && b.type !== 'stdio') {
    if (a.url !== b.url) changes.push(`URL: ${shown(a.url, 500)} → ${shown(b.url, 500)}`);
    const ha = (a.headers ?? {}) as Record<string, unknown>;
    const hb = (b.headers ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(hb)) if (!(key in ha)) changes.push(`Header: adds ${shown(key, 100)}`);
    for (const key of Object.keys(ha)) if (!(key in hb)) changes.push(`Header: removes ${shown(key, 100)}`);
    for (const key of Object.keys(ha))
      if (key in hb && JSON.stringify(ha[key]) !== JSON.stringify(hb[key])) changes.push(`Header: ${shown(key, 100)} changes`);
    if ((a.allowInsecureHttp ?? false) !== (b.allowInsecureHttp ?? false))
      changes.push(`Allow insecure http: ${String(a.allowInsecureHttp ?? false)} → ${String(b.allowInsecureHttp ?? false)}`);
  }
  return changes;
}
