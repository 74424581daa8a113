// The Electron app loads its renderer from app://switchboard/ instead of file://, through the same asset loader
// as headless mode, so the document gets the same headers and the same Content-Security-Policy with a fresh nonce.
import { protocol, type CustomScheme } from 'electron';
import { loadStaticAsset } from '../headless/static-files.js';

/** The renderer's scheme and host. */
export const RENDERER_ORIGIN = 'app://switchboard';

/** Declares the scheme privileged (standard URL, secure context), with the app's other schemes (this may run once). Must run before the app is ready. */
export function registerRendererScheme(others: CustomScheme[] = []): void {
  protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }, ...others]);
}

/** Serves `root` on app://switchboard/ (other hosts of the scheme get 404); `csp` builds the policy for a nonce. */
export function handleRendererProtocol(root: string, csp?: (nonce: string) => string): void {
  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'switchboard' || request.method !== 'GET') return new Response('Not found', { status: 404 });
    const asset = await loadStaticAsset(root, url.pathname, csp);
    return new Response(asset.body, { status: asset.status, headers: asset.headers });
  });
}

/** True when a frame URL is the app's own renderer document. */
export function isRendererUrl(url: string): boolean {
  return url === `${RENDERER_ORIGIN}/` || url.startsWith(`${RENDERER_ORIGIN}/`);
}
