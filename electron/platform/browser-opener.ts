// The safe browser opener: every URL is checked by checkAuthorizationUrl (https only, http only for loopback, no
// user info, no control characters, DNS-shaped host) and then handed to an injected function — Electron's
// shell.openExternal in the app — never to a shell or the `open` package. In headless mode the URL is only shown
// in the UI (via the auth status) and printed to stderr.
import type { BrowserOpener } from '../core/auth/auth-ports.js';
import { checkAuthorizationUrl } from '../core/auth/safe-url.js';

/** Opens URLs with an injected function (Electron: `(url) => shell.openExternal(url)`). */
export function createBrowserOpener(openExternal: (url: string) => Promise<void>): BrowserOpener {
  return {
    kind: 'browser',
    async open(url: URL): Promise<void> {
      const checked = checkAuthorizationUrl(url.href);
      await openExternal(checked.href);
    },
  };
}

/** Headless mode: prints the URL (stderr by default) so a user on another machine can open it. */
export function createPrintingOpener(print: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): BrowserOpener {
  return {
    kind: 'print',
    async open(url: URL): Promise<void> {
      const checked = checkAuthorizationUrl(url.href);
      print(`Open this address in a browser to sign in: ${checked.href}`);
    },
  };
}
