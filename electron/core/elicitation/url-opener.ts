// The port through which an accepted URL-mode elicitation is opened. The app injects the safe browser opener;
// headless mode records the URL and prints it (`opened: <url>` on stderr) instead of launching anything.
import { AppError } from '../../../shared/errors.js';

/** Opens a URL the user consented to, outside the app. */
export interface UrlOpener {
  /** Opens exactly this URL; rejects when it cannot. */
  open(url: string): Promise<void>;
}

/** Refuses anything but an http(s) URL that `new URL` parses. */
export function assertOpenableUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('url_refused', 'The link is not a valid URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new AppError('url_refused', 'Only http and https links can be opened');
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
    assertOpenableUrl(url);
    this.opened.push(url);
    this.#write(`opened: ${url}\n`);
  }
}
