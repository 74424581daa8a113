// The Content-Security-Policy an app runs under, built from its `_meta.ui.csp`. Every declared domain is checked as an
// origin (scheme://host[:port], nothing else; https or wss, plain http/ws only on loopback; a `*.` wildcard only
// over a registrable domain, never directly over a public suffix); then, for the server that declared it, loopback
// origins are kept only when that server runs on this machine, and Switchboard's own ports are never allowed. Anything
// else is refused and reported. Nothing declared means nothing external.
import { getDomain } from 'tldts';
import type { AppCsp, AppCspRefusal } from '../../../shared/domains/apps.js';
import { isObject } from '../json.js';
import { hostReach, type HostReach } from '../net/private-host.js';
import { sanitizeText, truncate } from '../text.js';

/** Most entries kept per list. */
export const MAX_CSP_ENTRIES = 32;
/** Longest origin accepted. */
const MAX_ORIGIN = 300;

const LISTS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

const ORIGIN = /^(https|wss|http|ws):\/\/(\*\.)?(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?\/?$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Checks one declared domain; returns the normalized origin or the reason it is refused. */
export function checkOrigin(value: unknown): { origin: string } | { reason: string } {
  if (typeof value !== 'string') return { reason: 'not text' };
  const raw = value.trim().toLowerCase();
  if (raw.length === 0 || raw.length > MAX_ORIGIN) return { reason: 'empty or too long' };
  const m = ORIGIN.exec(raw);
  if (!m) return { reason: 'not an origin (scheme://host[:port] only: no path, query, keyword or wildcard scheme)' };
  const [, scheme, wildcard, host, port] = m as unknown as [string, string, string | undefined, string, string | undefined];
  const ip = IPV4.test(host) || host.startsWith('[');
  if (IPV4.test(host) && host.split('.').some((o) => Number(o) > 255)) return { reason: 'not a valid address' };
  if (!ip && !host.split('.').every((l) => LABEL.test(l))) return { reason: 'not a valid host name' };
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return { reason: 'not a valid port' };
  const loopback = hostReach(host) === 'loopback';
  if ((scheme === 'http' || scheme === 'ws') && !loopback)
    return { reason: 'only https and wss origins are allowed (http only on loopback)' };
  if (wildcard) {
    if (ip || loopback) return { reason: 'a wildcard needs a domain name' };
    // Private suffixes count too: *.github.io would cover every site under it.
    if (host.split('.').length < 2 || getDomain(host, { allowPrivateDomains: true }) === null)
      return { reason: `the wildcard is too broad: ${host} is a public suffix (*.<name>.${host} at least)` };
  }
  return { origin: `${scheme}://${wildcard ?? ''}${host}${port !== undefined ? `:${Number(port)}` : ''}` };
}

/** Reads `_meta.ui.csp`: the accepted origins of each list and every refused entry. */
export function parseCsp(raw: unknown): { csp: AppCsp; refused: AppCspRefusal[] } {
  const csp: AppCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  const refused: AppCspRefusal[] = [];
  if (raw === undefined) return { csp, refused };
  if (!isObject(raw)) {
    refused.push({ list: 'connectDomains', value: truncate(sanitizeText(JSON.stringify(raw) ?? ''), 120), reason: 'csp is not an object' });
    return { csp, refused };
  }
  for (const list of LISTS) {
    const values = raw[list];
    if (values === undefined) continue;
    if (!Array.isArray(values)) {
      refused.push({ list, value: truncate(sanitizeText(String(values)), 120), reason: 'not a list' });
      continue;
    }
    for (const value of values) {
      const shown = truncate(sanitizeText(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')), 120);
      if (csp[list].length >= MAX_CSP_ENTRIES) {
        refused.push({ list, value: shown, reason: `more than ${MAX_CSP_ENTRIES} entries` });
        continue;
      }
      const checked = checkOrigin(value);
      if ('reason' in checked) refused.push({ list, value: shown, reason: checked.reason });
      else if (!csp[list].includes(checked.origin)) csp[list].push(checked.origin);
    }
  }
  return { csp, refused };
}

/** Who declared a CSP and what this Switchboard itself listens on. */
export interface CspContext {
  /** Where the declaring MCP server runs: this machine (stdio, or loopback), a private network, or the internet. */
  server: HostReach;
  /** Ports Switchboard itself listens on (the headless bridge, the sandbox, the gateway). */
  reservedPorts: readonly number[];
}

const DEFAULT_PORT: Readonly<Record<string, number>> = { http: 80, ws: 80, https: 443, wss: 443 };

/** Why a checked origin is refused for this server and this Switchboard, or undefined when it is kept. */
function contextProblem(origin: string, ctx: CspContext): string | undefined {
  const url = new URL(origin.replace('://*.', '://'));
  const reach = hostReach(url.hostname);
  if (reach === 'public') return undefined;
  // The unspecified address reaches this machine too when a browser connects to it.
  const here = reach === 'loopback' || url.hostname === '0.0.0.0' || url.hostname === '[::]';
  if (!here)
    return ctx.server === 'public'
      ? 'an address on a private network is allowed only for a server on a private network or on this computer'
      : undefined;
  const port = url.port === '' ? DEFAULT_PORT[url.protocol.slice(0, -1)] : Number(url.port);
  if (port !== undefined && ctx.reservedPorts.includes(port)) return `port ${port} on this computer is Switchboard's own`;
  if (ctx.server !== 'loopback') return 'an address on this computer is allowed only for a server that runs on this computer';
  return undefined;
}

/** Applies the server's and this Switchboard's rules to a checked CSP: what stays, and every refusal with why. */
export function restrictCsp(parsed: { csp: AppCsp; refused: AppCspRefusal[] }, ctx: CspContext): { csp: AppCsp; refused: AppCspRefusal[] } {
  const csp: AppCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  const refused = [...parsed.refused];
  for (const list of LISTS) {
    for (const origin of parsed.csp[list]) {
      const reason = contextProblem(origin, ctx);
      if (reason === undefined) csp[list].push(origin);
      else refused.push({ list, value: origin, reason });
    }
  }
  return { csp, refused };
}

const join = (base: string[], extra: string[]): string => [...base, ...extra].join(' ');

/**
 * The policy the sandbox enforces for an app. Inline script and style are allowed (apps ship as one HTML file);
 * everything external is limited to the declared, checked origins; no plugins, no form targets; nested frames and
 * network access are off unless declared.
 */
export function buildCspPolicy(csp: AppCsp): string {
  const res = csp.resourceDomains;
  return [
    "default-src 'none'",
    `script-src ${join(["'self'", "'unsafe-inline'"], res)}`,
    `style-src ${join(["'self'", "'unsafe-inline'"], res)}`,
    `img-src ${join(["'self'", 'data:', 'blob:'], res)}`,
    `font-src ${join(["'self'", 'data:'], res)}`,
    `media-src ${join(["'self'", 'data:', 'blob:'], res)}`,
    `connect-src ${csp.connectDomains.length > 0 ? csp.connectDomains.join(' ') : "'none'"}`,
    `frame-src ${csp.frameDomains.length > 0 ? csp.frameDomains.join(' ') : "'none'"}`,
    "object-src 'none'",
    `base-uri ${csp.baseUriDomains.length > 0 ? csp.baseUriDomains.join(' ') : "'self'"}`,
    "form-action 'none'",
  ].join('; ');
}
