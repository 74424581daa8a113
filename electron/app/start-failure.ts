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
}

/** The dialog's title and text for a failed start. */
export function startFailureMessage(err: unknown, logFile: string | null): { title: string; content: string } {
  const reason = truncate(escapeControl(err instanceof Error ? err.message : String(err)), 1000);
  const log = logFile ? `\n\nDetails are in the log: ${logFile}` : '\n\nNo log file could be written.';
  return { title: 'Switchboard could not start', content: `${reason}${log}` };
}

/** Reports the failure and exits with code 1. Never throws. */
export function reportStartFailure(ports: StartFailurePorts, err: unknown, logFile: string | null): void {
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
  try {
    const { title, content } = startFailureMessage(err, logFile);
    ports.showErrorBox(title, content);
  } finally {
    ports.exit(1);
  }
}
