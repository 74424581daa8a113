// The desktop save dialog cannot run here (no Electron binary), so its Electron side is checked by the compiler: the
// adapter's ports are the parts of Electron's own Session and DownloadItem it uses, and these assertions fail the
// typecheck when an Electron upgrade changes them. The behaviour behind the ports is in download-dialog.test.ts.
// Type-only imports of 'electron': erased at run time, so the binary is never loaded.
import type { DownloadItem, SaveDialogOptions as ElectronSaveDialogOptions, Session } from 'electron';
import { describe, expectTypeOf, it } from 'vitest';
import type { DownloadItemLike, DownloadSession, routeDownloadsToSaveDialog, SaveDialogOptions } from '../../electron/app/download-dialog';

/** The item Electron passes to a 'will-download' listener (second parameter). */
type WillDownloadItem = Parameters<Extract<Parameters<Session['on']>, ['will-download', unknown]>[1]>[1];

describe('the save-dialog adapter against Electron’s types', () => {
  it('a real Session is a DownloadSession, and routeDownloadsToSaveDialog takes one', () => {
    expectTypeOf<Session>().toExtend<DownloadSession>();
    expectTypeOf<Session>().toExtend<Parameters<typeof routeDownloadsToSaveDialog>[0]>();
  });

  it('the item Electron hands to will-download is a DownloadItemLike, method by method', () => {
    expectTypeOf<WillDownloadItem>().toEqualTypeOf<DownloadItem>();
    expectTypeOf<DownloadItem>().toExtend<DownloadItemLike>();
    expectTypeOf<DownloadItem['getURL']>().toEqualTypeOf<DownloadItemLike['getURL']>();
    expectTypeOf<DownloadItem['getFilename']>().toEqualTypeOf<DownloadItemLike['getFilename']>();
    expectTypeOf<DownloadItem['cancel']>().toEqualTypeOf<DownloadItemLike['cancel']>();
  });

  it('the options the adapter sets are options Electron’s save dialog accepts', () => {
    expectTypeOf<SaveDialogOptions>().toExtend<ElectronSaveDialogOptions>();
    expectTypeOf<Parameters<DownloadItem['setSaveDialogOptions']>[0]>().toEqualTypeOf<ElectronSaveDialogOptions>();
  });
});
