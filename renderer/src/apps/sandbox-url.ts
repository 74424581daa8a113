// Where the renderer loads an app's sandbox page from. Headless mode serves the sandbox on a second loopback port;
// reaching it under the other loopback name than the renderer's own (localhost vs 127.0.0.1) also makes it another
// site, so Chromium runs the app in a separate process from the renderer (stronger isolation, and the app's work
// does not block the renderer's thread).
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost'];

/** The sandbox page URL to load from a renderer at `here`, with the renderer's origin in the fragment. */
export function sandboxSrc(sandboxUrl: string, here: { hostname: string; origin: string }): string {
  let url: URL;
  try {
    url = new URL(sandboxUrl);
  } catch {
    return sandboxUrl;
  }
  if (url.protocol === 'http:' && url.hostname === here.hostname && LOOPBACK_NAMES.includes(url.hostname)) {
    url.hostname = LOOPBACK_NAMES.find((n) => n !== here.hostname)!;
  }
  const hostOrigin = here.origin === 'null' ? 'file://' : here.origin;
  url.hash = `host=${encodeURIComponent(hostOrigin)}`;
  return url.toString();
}
