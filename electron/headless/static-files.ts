// Serves the built renderer; no token needed, nothing outside the folder is reachable. The same asset loader
// answers the Electron app's renderer protocol, so both shells send the same headers and policy.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { newCspNonce, rendererCsp, withCspNonce } from '../renderer-csp.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** One answered asset request. */
export interface StaticAsset {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Record<string, string>;
  /** Response body (empty for errors). */
  body: Buffer;
}

const plain = (status: number, text: string): StaticAsset => ({
  status,
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  body: Buffer.from(text),
});

/**
 * Loads the asset at a URL path (still percent-encoded) under `root`. HTML documents get a fresh style nonce in
 * their body and in the policy; `csp` builds the policy for a nonce (the shells add their frame origins).
 */
export async function loadStaticAsset(
  root: string,
  rawPathname: string,
  csp: (nonce: string) => string = rendererCsp,
): Promise<StaticAsset> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPathname);
  } catch {
    // Malformed percent-encoding: answer, never throw.
    return plain(400, 'Bad request');
  }
  const rel = pathname === '/' || pathname === '' ? 'index.html' : pathname.replace(/^\/+/, '');
  const file = normalize(join(root, rel));
  if (!file.startsWith(normalize(root) + sep) || rel.includes('\0')) return plain(404, 'Not found');
  let raw: Buffer;
  try {
    raw = await readFile(file);
  } catch {
    return plain(404, 'Not found');
  }
  const nonce = newCspNonce();
  const body = extname(file) === '.html' ? Buffer.from(withCspNonce(raw.toString('utf8'), nonce)) : raw;
  return {
    status: 200,
    headers: {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Security-Policy': csp(nonce),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    },
    body,
  };
}

/** Answers one static request from `root` over HTTP. */
export async function serveStatic(
  root: string,
  req: IncomingMessage,
  res: ServerResponse,
  csp: (nonce: string) => string = rendererCsp,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  let pathname: string;
  try {
    pathname = new URL(req.url ?? '/', 'http://x').pathname;
  } catch {
    res.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad request');
    return;
  }
  const asset = await loadStaticAsset(root, pathname, csp);
  res.writeHead(asset.status, asset.headers);
  res.end(req.method === 'HEAD' ? undefined : asset.body);
}
