// The renderer's Content-Security-Policy: one source for both shells (headless static server and the Electron app
// protocol). Scripts only from our own origin, no eval, no inline script; inline <style> only with the per-document
// nonce (the component library injects its theme and layout rules as <style> elements carrying that nonce).
import { randomBytes } from 'node:crypto';

/** Placeholder in the built index.html that each served copy replaces with a fresh nonce. */
export const CSP_NONCE_PLACEHOLDER = '__SWITCHBOARD_CSP_NONCE__';

/** Extra sources one shell adds (e.g. the origin MCP Apps' sandbox is served from). */
export interface CspExtras {
  /** Origins the renderer may frame (the MCP Apps sandbox); none by default. */
  frameSrc?: readonly string[];
}

/** The renderer's policy for one document, given its style nonce. */
export function rendererCsp(nonce: string, extras: CspExtras = {}): string {
  const frames = extras.frameSrc && extras.frameSrc.length > 0 ? extras.frameSrc.join(' ') : "'none'";
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
    `frame-src ${frames}`,
    "worker-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** A fresh nonce for one document (128 bits, base64). */
export function newCspNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The served copy of index.html: every nonce placeholder replaced by `nonce`. */
export function withCspNonce(html: string, nonce: string): string {
  return html.split(CSP_NONCE_PLACEHOLDER).join(nonce);
}
