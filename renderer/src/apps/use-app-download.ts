// An app view's `ui/download-file` requests: read and bounded first (a refusal goes back to the app with its reason,
// and nobody is asked), then the person is asked with each file's name, type and size, and only then is each file
// handed to the save (the desktop app's save dialog, headless mode's browser download). One request at a time: a
// further one while the person is being asked is refused at once, so every request settles.
import { useCallback, useRef, useState } from 'react';
import { saveFile } from '../lib/save-file';
import { readDownload, type DownloadFile, type ReadOwnResource } from './download-request';

/** The error an app gets for a download asked while another waits for the person. */
export const DOWNLOAD_WAITING = 'Another download from this app is already waiting for the person to answer';

/** What the view needs: the handler for its frame, the dialog's state, and a way to decline when the app goes away. */
export interface AppDownloads {
  /** ui/download-file: true once saved, false when the person declined; throws a refusal's reason. */
  onDownloadFile: (contents: unknown) => Promise<boolean>;
  /** The files being asked about (null when no dialog is shown). */
  asking: DownloadFile[] | null;
  /** The person's answer. */
  answer: (save: boolean) => void;
  /** Declines the request being asked about (the view or the app goes away). */
  decline: () => void;
}

/** The download requests of one app view; `read` reads a resource of the app's own server. */
export function useAppDownloads(read: ReadOwnResource | null, save: typeof saveFile = saveFile): AppDownloads {
  const [asking, setAsking] = useState<DownloadFile[] | null>(null);
  const pending = useRef<((save: boolean) => void) | null>(null);
  const busy = useRef(false);

  const answer = useCallback((yes: boolean) => {
    const resolve = pending.current;
    pending.current = null;
    setAsking(null);
    resolve?.(yes);
  }, []);

  const onDownloadFile = useCallback(
    async (contents: unknown): Promise<boolean> => {
      if (!read) throw new Error('The app is not open; nothing was saved');
      if (busy.current) throw new Error(DOWNLOAD_WAITING);
      busy.current = true;
      try {
        const check = await readDownload(contents, read);
        if (!check.ok) throw new Error(check.reason);
        const yes = await new Promise<boolean>((resolve) => {
          pending.current = resolve;
          setAsking(check.files);
        });
        if (!yes) return false;
        for (const f of check.files) save(f.name, f.bytes, f.mimeType);
        return true;
      } finally {
        busy.current = false;
      }
    },
    [read, save],
  );

  return { onDownloadFile, asking, answer, decline: () => answer(false) };
}
