// A start that fails shows a native error dialog with the reason and the log's path, then exits non-zero, so no
// invisible process keeps the single-instance lock (or the data folder) and the next launch works.
import { escapeControl, truncate } from '../core/text.js';

/** The Electron pieces this module uses: dialog.showErrorBox and app.exit. */
export interface StartFailurePorts {
  showErrorBox(title: string, content: string): void;
  exit(code: number): void;
  /** Writes the failure to the log, when the log exists. */
  log?(message: string): void;
  /** Releases what was taken before the failure (the data-folder lock). */
  release?(): void;
  /** Waits until the log is on disk (the log writes in the background; exit would cut it short). */
  flushLog?(): Promise<void>;
}

/** How long a failed start waits for its log to reach the disk before showing the dialog. */
export const START_FAILURE_FLUSH_MS = 1000;

/** The dialog's title and text for a failed start. */
export function startFailureMessage(err: unknown, logFile: string | null): { title: string; content: string } {
  const reason = truncate(escapeControl(err instanceof Error ? err.message : String(err)), 1000);
  const log = logFile ? `\n\nDetails are in the log: ${logFile}` : '\n\nNo log file could be written.';
  return { title: 'Switchboard could not start', content: `${reason}${log}` };
}

/** Reports the failure and exits with code 1; the log gets at most `flushMs` to reach the disk first. */
export async function reportStartFailure(
  ports: StartFailurePorts,
  err: unknown,
  logFile: string | null,
  flushMs = START_FAILURE_FLUSH_MS,
): Promise<void> {
  try {
    ports.log?.(`start failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  } catch {
    // the log is best effort here
  }
  try {
    ports.release?.();
  } catch {
    // the lock is taken over as stale next time
  }
  await boundedFlush(ports, flushMs);
  try {
    const { title, content } = startFailureMessage(err, logFile);
    ports.showErrorBox(title, content);
  } finally {
    ports.exit(1);
  }
}

async function boundedFlush(ports: StartFailurePorts, ms: number): Promise<void> {
  if (!ports.flushLog) return;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ports.flushLog().catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
