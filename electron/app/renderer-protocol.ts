// The Electron app loads its renderer from app://switchboard/ instead of file://, through the same asset loader
// as headless mode, so the document gets the same headers and the same Content-Security-Policy with a fresh nonce.
import { protocol } from 'electron';
import { loadStaticAsset } from '../headless/static-files.js';

/** The renderer's scheme and host. */
export const RENDERER_ORIGIN = 'app://switchboard';

/** Declares the scheme privileged (standard URL, secure context). Must run before the app is ready. */
export function registerRendererScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Serves `root` on app://switchboard/ (other hosts of the scheme get 404). */
export function handleRendererProtocol(root: string): void {
  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'switchboard' || request.method !== 'GET') return new Response('Not found', { status: 404 });
    const asset = await loadStaticAsset(root, url.pathname);
    return new Response(asset.body, { status: asset.status, headers: asset.headers });
  });
}

/** True when a frame URL is the app's own renderer document. */
export function isRendererUrl(url: string): boolean {
  return url === `${RENDERER_ORIGIN}/` || url.startsWith(`${RENDERER_ORIGIN}/`);
}
