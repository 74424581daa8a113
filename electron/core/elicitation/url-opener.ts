// The port through which an accepted URL-mode elicitation is opened. The app injects the safe browser opener;
// headless mode records the URL and prints it (`opened: <url>` on stderr, escaped) instead of launching anything.
import { AppError } from '../../../shared/errors.js';
import { escapeControl } from '../text.js';
import { checkExternalUrl } from '../url-policy.js';

/** Opens a URL the user consented to, outside the app. */
export interface UrlOpener {
  /** Opens exactly this URL; rejects when it cannot. */
  open(url: string): Promise<void>;
}

/** The URL policy's verdict as the opener needs it: the normalized address, or a url_refused error. */
export function openableUrl(url: string): string {
  const verdict = checkExternalUrl(url);
  if (!verdict.ok) throw new AppError('url_refused', verdict.reason);
  return verdict.url;
}

/** Throws url_refused unless the URL policy accepts the URL (for callers that open the normalized form themselves). */
export function assertOpenableUrl(url: string): void {
  openableUrl(url);
}

/** Headless opener: records each URL and prints it to stderr for the person (or test) at the terminal. */
export class PrintingUrlOpener implements UrlOpener {
  /** Every URL opened, in order. */
  readonly opened: string[] = [];
  readonly #write: (line: string) => void;

  constructor(write: (line: string) => void = (line) => process.stderr.write(line)) {
    this.#write = write;
  }

  async open(url: string): Promise<void> {
    const checked = openableUrl(url);
    this.opened.push(checked);
    this.#write(`opened: ${escapeControl(checked)}\n`);
  }
}
