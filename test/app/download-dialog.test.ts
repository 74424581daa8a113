// The desktop save-dialog adapter without Electron: own downloads get the dialog with a safe name, others are cancelled.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isOwnDownload,
  routeDownloadsToSaveDialog,
  suggestedName,
  type DownloadItemLike,
  type SaveDialogOptions,
} from '../../electron/app/download-dialog';
import { appUrlChecker } from '../../electron/app/window-hardening';

const isAppUrl = appUrlChecker('app://switchboard');

/** A download item that records what the adapter did with it. */
function item(url: string, filename: string): DownloadItemLike & { options?: SaveDialogOptions; cancelled: boolean } {
  const it: DownloadItemLike & { options?: SaveDialogOptions; cancelled: boolean } = {
    cancelled: false,
    getURL: () => url,
    getFilename: () => filename,
    setSaveDialogOptions: (o) => (it.options = o),
    cancel: () => (it.cancelled = true),
  };
  return it;
}

function session() {
  let listener: ((event: unknown, item: DownloadItemLike) => void) | undefined;
  return {
    on: (_event: 'will-download', l: (event: unknown, item: DownloadItemLike) => void) => (listener = l),
    download: (i: DownloadItemLike) => listener?.({}, i),
  };
}

describe('downloads in the desktop app', () => {
  it('a download of Switchboard’s own page gets the save dialog, named for the file in the Downloads folder', () => {
    const s = session();
    const log: string[] = [];
    routeDownloadsToSaveDialog(s, { isAppUrl, downloadsDir: '/home/me/Downloads', log: (m) => log.push(m) });
    const own = item('blob:app://switchboard/3b1c-uuid', 'report.csv');
    s.download(own);
    expect(own.cancelled).toBe(false);
    expect(own.options).toEqual({ title: 'Save file', defaultPath: join('/home/me/Downloads', 'report.csv'), buttonLabel: 'Save' });
    expect(log).toEqual([]);
  });

  it('a download from anywhere else (an app’s sandbox, a web address) is cancelled and logged, with no dialog', () => {
    const s = session();
    const log: string[] = [];
    routeDownloadsToSaveDialog(s, { isAppUrl, downloadsDir: '/d', log: (m) => log.push(m) });
    for (const url of ['blob:app-sandbox://apps/uuid', 'https://example.com/x.exe', 'data:text/plain,hi', 'app://switchboard/x']) {
      const other = item(url, 'x');
      s.download(other);
      expect(other.cancelled, url).toBe(true);
      expect(other.options, url).toBeUndefined();
    }
    expect(log).toHaveLength(4);
  });

  it('only blob addresses of the renderer’s origin count as its own', () => {
    expect(isOwnDownload('blob:app://switchboard/abc', isAppUrl)).toBe(true);
    expect(isOwnDownload('blob:app://switchboard.evil/abc', isAppUrl)).toBe(false);
    expect(isOwnDownload('blob:app://user@switchboard/abc', isAppUrl)).toBe(false);
  });

  it('the suggested name is a file name alone: no folders, reserved or control characters, never empty', () => {
    expect(suggestedName('../../etc/passwd')).toBe('passwd');
    expect(suggestedName('C:\\Windows\\evil.bat')).toBe('evil.bat');
    expect(suggestedName('a\u0000b<c>.txt')).toBe('a_b_c_.txt');
    expect(suggestedName('.bashrc')).toBe('bashrc');
    expect(suggestedName('')).toBe('download');
    expect(suggestedName('x'.repeat(500))).toHaveLength(200);
  });
});
