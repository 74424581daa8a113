// Saving files in the desktop app. A file the person agreed to save (an MCP app's ui/download-file after its
// consent dialog, an export) starts as a download of Switchboard's own page; here it gets the system save dialog,
// titled plainly, with a safe default name in the Downloads folder. Nothing saved is ever opened. A download that
// does not come from Switchboard's own page (an app frame asking the browser directly) is cancelled: apps save only
// through the consent dialog.
import { basename, join } from 'node:path';

/** The save dialog's options (Electron's DownloadItem.setSaveDialogOptions). */
export interface SaveDialogOptions {
  title: string;
  defaultPath: string;
  buttonLabel: string;
}

/** The part of an Electron DownloadItem used here. */
export interface DownloadItemLike {
  getURL(): string;
  getFilename(): string;
  setSaveDialogOptions(options: SaveDialogOptions): void;
  cancel(): void;
}

/** The part of an Electron Session used here. */
export interface DownloadSession {
  on(event: 'will-download', listener: (event: unknown, item: DownloadItemLike) => void): unknown;
}

/** What the adapter needs to know. */
export interface DownloadDialogOptions {
  /** True for Switchboard's own pages. */
  isAppUrl: (url: string) => boolean;
  /** The person's Downloads folder (the dialog's starting place). */
  downloadsDir: string;
  log?: (message: string) => void;
}

/** True when a download's address is Switchboard's own page's data (`blob:<renderer origin>/…`). */
export function isOwnDownload(url: string, isAppUrl: (url: string) => boolean): boolean {
  return url.startsWith('blob:') && isAppUrl(url.slice('blob:'.length));
}

/** The name the save dialog suggests: the file name alone, never a path, never empty. */
export function suggestedName(name: string): string {
  const cleaned = basename(name.replace(/\\/g, '/'))
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/^\.+/, '');
  return cleaned === '' ? 'download' : cleaned.slice(0, 200);
}

/** Routes every download of `session` through the save dialog, or cancels it when it is not Switchboard's own. */
export function routeDownloadsToSaveDialog(session: DownloadSession, options: DownloadDialogOptions): void {
  session.on('will-download', (_event, item) => {
    const url = item.getURL();
    if (!isOwnDownload(url, options.isAppUrl)) {
      item.cancel();
      options.log?.(`cancelled a download that did not come from Switchboard's page: ${url.slice(0, 200)}`);
      return;
    }
    // No save path is set, so Electron asks with the system dialog; cancelling it cancels the download.
    item.setSaveDialogOptions({
      title: 'Save file',
      defaultPath: join(options.downloadsDir, suggestedName(item.getFilename())),
      buttonLabel: 'Save',
    });
  });
}
