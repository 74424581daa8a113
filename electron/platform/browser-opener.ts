// The safe browser opener: every URL passes the one URL policy (electron/core/url-policy.ts: https only, http only
// for loopback, no user info, no control, bidi or invisible characters, DNS-shaped host) and is then handed to an
// injected function — Electron's shell.openExternal in the app — never to a shell or the `open` package. In headless
// mode the URL is only shown in the UI (via the auth status) and printed to stderr, escaped for the terminal.
import { AppError } from '../../shared/errors.js';
import type { BrowserOpener } from '../core/auth/auth-ports.js';
import { escapeControl } from '../core/text.js';
import { checkExternalUrl } from '../core/url-policy.js';

function checked(url: URL): string {
  const verdict = checkExternalUrl(url.href, 'The address');
  if (!verdict.ok) throw new AppError('url_refused', verdict.reason);
  return verdict.url;
}

/** Opens URLs with an injected function (Electron: `(url) => shell.openExternal(url)`). */
export function createBrowserOpener(openExternal: (url: string) => Promise<void>): BrowserOpener {
  return {
    kind: 'browser',
    async open(url: URL): Promise<void> {
      await openExternal(checked(url));
    },
  };
}

/** Headless mode: prints the URL (stderr by default) so a user on another machine can open it. */
export function createPrintingOpener(print: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): BrowserOpener {
  return {
    kind: 'print',
    async open(url: URL): Promise<void> {
      print(`Open this address in a browser to sign in: ${escapeControl(checked(url))}`);
    },
  };
}
