// The "running" marker: a small file in the data folder that the core writes when it starts and a clean shutdown
// removes as one of its last steps (after History and the other stores are written). Found at start, it means the
// previous run ended without a clean shutdown (kill -9, a crash, power loss). History is written a moment after each
// call (write-behind, by design, so a call never waits on the disk), so the last moments of it may be missing, and
// the person is told so instead of finding out by themselves.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppNotice } from '../../../shared/contract.js';
import { writeJsonAtomicSync } from '../storage/json-file.js';

/** The marker's file name in the data folder. */
export const RUN_MARKER_FILE = 'running.json';

/** The notice's id. */
export const UNCLEAN_STOP_NOTICE = 'unclean-stop';

/** The marker of one run: says at start whether the last run stopped cleanly. */
export class RunMarker {
  readonly #file: string;

  constructor(dataDir: string) {
    this.#file = join(dataDir, RUN_MARKER_FILE);
  }

  /**
   * Starts a run: returns the notice to show when the previous run did not stop cleanly (undefined otherwise), and
   * writes this run's marker. A marker that cannot be written is reported in the returned `problem`.
   */
  begin(now: Date = new Date()): { notice?: AppNotice; problem?: string } {
    let since: string | undefined;
    let found = false;
    try {
      const text = readFileSync(this.#file, 'utf8');
      found = true;
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { since?: unknown }).since === 'string') {
        since = (parsed as { since: string }).since;
      }
    } catch {
      // Missing: the last run stopped cleanly (or there was none). Unreadable: still a marker, so still unclean.
    }
    const notice: AppNotice | undefined = found
      ? {
          id: UNCLEAN_STOP_NOTICE,
          level: 'warning',
          message:
            `Switchboard did not stop cleanly last time${since ? ` (the run started ${since})` : ''}: it was killed or crashed. ` +
            'History is saved a moment after each call, so the calls of the last moments before it stopped may be missing from it.',
        }
      : undefined;
    try {
      writeJsonAtomicSync(this.#file, { pid: process.pid, since: now.toISOString() });
    } catch (err) {
      return {
        ...(notice ? { notice } : {}),
        problem: `The data folder's running marker could not be written (${(err as Error).message}); an unclean stop will not be noticed at the next start.`,
      };
    }
    return notice ? { notice } : {};
  }

  /** Ends the run cleanly: removes the marker (the last step before the lock and the log). */
  end(): void {
    rmSync(this.#file, { force: true });
  }
}
