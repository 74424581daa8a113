// switchboard:// install links in the Electron app: registers the scheme with the OS and collects the links it
// delivers (macOS `open-url`, a second launch's argv on Windows and Linux, this launch's argv). Links are buffered
// until the core is ready and then handed over; the core only ever shows a preview of them.
import type { App } from 'electron';
import { resolve } from 'node:path';

/** The URL scheme of install links. */
export const INSTALL_LINK_SCHEME = 'switchboard';

/** Links collected before (and after) the core was ready. */
export interface InstallLinks {
  /** Hands every buffered and future link to `receive`; `focus` brings the window forward. */
  deliver(receive: (link: string) => void, focus: () => void): void;
}

function linkIn(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${INSTALL_LINK_SCHEME}://`));
}

/** Registers the scheme and starts collecting links; call before `app.whenReady()` so a launching link is not missed. */
export function collectInstallLinks(app: App): InstallLinks {
  if (process.defaultApp && process.argv[1] !== undefined) {
    app.setAsDefaultProtocolClient(INSTALL_LINK_SCHEME, process.execPath, [resolve(process.argv[1])]);
  } else {
    app.setAsDefaultProtocolClient(INSTALL_LINK_SCHEME);
  }
  const pending: string[] = [];
  let receiver: ((link: string) => void) | undefined;
  let bringForward: (() => void) | undefined;
  const take = (link: string | undefined): void => {
    if (link === undefined) return;
    if (receiver === undefined) pending.push(link);
    else {
      receiver(link);
      bringForward?.();
    }
  };
  take(linkIn(process.argv));
  app.on('open-url', (event, url) => {
    event.preventDefault();
    take(url);
  });
  app.on('second-instance', (_event, argv) => take(linkIn(argv)));
  return {
    deliver(receive, focus) {
      receiver = receive;
      bringForward = focus;
      for (const link of pending.splice(0)) receive(link);
    },
  };
}
