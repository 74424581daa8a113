// The style nonce of this document: the server (headless) or the app protocol (Electron) writes a fresh one into
// <meta name="csp-nonce"> and into the Content-Security-Policy, and the component library stamps it on its <style>s.

let cached: string | undefined;

/** The document's style nonce ('' when the page was not served with one, e.g. a unit test). */
export function styleNonce(): string {
  if (cached === undefined) {
    const meta = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]');
    const value = meta?.content ?? '';
    cached = value.startsWith('__') ? '' : value;
  }
  return cached;
}

/**
 * Lends the nonce to libraries that inject <style> elements on their own: the dialogs' scroll lock (react-remove-scroll
 * through react-style-singleton) reads the conventional `__webpack_nonce__` global when no nonce was set for it.
 */
export function shareStyleNonce(): void {
  const nonce = styleNonce();
  if (nonce) (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = nonce;
}
