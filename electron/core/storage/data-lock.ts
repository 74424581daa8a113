// One Switchboard process per data folder. The Electron app and headless mode (or two headless runs) would otherwise
// write the same settings, history and approvals and lose each other's changes. The lock is a small file holding the
// holder's pid, mode, host name and process start token; a lock whose process is gone (or whose pid now belongs to
// another process) is stale and taken over. The second process is told exactly which process holds the folder.
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors.js';
import { isObject } from '../json.js';
import { processAlive } from '../transports/process-group.js';

/** The lock file's name in the data folder. */
export const LOCK_FILE = 'switchboard.lock';
/** A lock file this young without content may be mid-write by its creator: it counts as held. */
const FRESH_MS = 5000;

/** What the lock file records about its holder. */
export interface LockHolder {
  /** Process id. */
  pid: number;
  /** Which shell holds it (electron, headless, or a tool's name). */
  mode: string;
  /** When it was taken (ISO time). */
  since: string;
  /** Machine name (a data folder on a network drive can be shared between machines). */
  host: string;
  /** The process's start token on Linux (tells a reused pid apart), when known. */
  start?: string;
}

/** A held data-folder lock. */
export interface DataLock {
  /** The lock file. */
  readonly file: string;
  /** Who holds it (this process). */
  readonly holder: LockHolder;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): void;
}

/** What acquireDataLock needs to know about this process (tests pass other values). */
export interface LockIdentity {
  mode: string;
  pid?: number;
  now?: () => Date;
}

/** The start time of a process on Linux (field 22 of /proc/<pid>/stat), or undefined elsewhere. */
export function processStartToken(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function readHolder(file: string): LockHolder | 'unreadable' | 'missing' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
  try {
    const raw: unknown = JSON.parse(text);
    if (isObject(raw) && typeof raw['pid'] === 'number' && typeof raw['mode'] === 'string') {
      return {
        pid: raw['pid'],
        mode: raw['mode'],
        since: typeof raw['since'] === 'string' ? raw['since'] : '',
        host: typeof raw['host'] === 'string' ? raw['host'] : '',
        ...(typeof raw['start'] === 'string' ? { start: raw['start'] } : {}),
      };
    }
  } catch {
    // fall through
  }
  return 'unreadable';
}

/** Whether the recorded holder is still the process that took the lock. */
export function holderAlive(holder: LockHolder): boolean {
  if (holder.host !== '' && holder.host !== hostname()) return true; // cannot check another machine: assume held
  if (!processAlive(holder.pid)) return false;
  if (holder.start === undefined) return true;
  const now = processStartToken(holder.pid);
  return now === undefined || now === holder.start;
}

/** Plain words naming the holder, for the refusal. */
export function describeHolder(holder: LockHolder): string {
  const shell =
    holder.mode === 'electron' ? 'the Switchboard app' : holder.mode === 'headless' ? 'Switchboard in headless mode' : holder.mode;
  const where = holder.host && holder.host !== hostname() ? ` on ${holder.host}` : '';
  const since = holder.since ? `, running since ${holder.since}` : '';
  return `${shell} (process ${holder.pid}${where}${since})`;
}

/**
 * Takes the data folder for this process, or throws `data_locked` naming the process that holds it. A stale lock
 * (its process is gone, or its pid now belongs to another process) is taken over.
 */
export function acquireDataLock(dir: string, who: LockIdentity): DataLock {
  const file = join(dir, LOCK_FILE);
  const pid = who.pid ?? process.pid;
  const start = processStartToken(pid);
  const holder: LockHolder = {
    pid,
    mode: who.mode,
    since: (who.now ?? (() => new Date()))().toISOString(),
    host: hostname(),
    ...(start !== undefined ? { start } : {}),
  };
  const body = `${JSON.stringify(holder)}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, body);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      return lockOf(file, body, holder);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new AppError('storage_failed', `The data folder ${dir} cannot be locked: ${(err as Error).message}`, { cause: err });
      }
    }
    const found = readHolder(file);
    if (found === 'missing') continue;
    if (found === 'unreadable') {
      if (youngerThan(file, FRESH_MS)) {
        throw new AppError(
          'data_locked',
          `Another Switchboard is starting with the data folder ${dir}. Wait for it, or use another data folder.`,
        );
      }
    } else if (holderAlive(found)) {
      throw new AppError(
        'data_locked',
        `The data folder ${dir} is in use by ${describeHolder(found)}. Close it first, or start this one with another data folder.`,
      );
    }
    takeOverStale(file, found);
  }
  throw new AppError('data_locked', `The data folder ${dir} could not be locked: other processes keep taking it.`);
}

function youngerThan(file: string, ms: number): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < ms;
  } catch {
    return false;
  }
}

/** Moves a stale lock out of the way; if a live lock was taken by mistake (a race), it is put back. */
function takeOverStale(file: string, judged: LockHolder | 'unreadable'): void {
  const aside = `${file}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(file, aside);
  } catch {
    return; // someone else moved it: try again
  }
  const moved = readHolder(aside);
  const same =
    judged === 'unreadable'
      ? moved === 'unreadable'
      : moved !== 'missing' && moved !== 'unreadable' && moved.pid === judged.pid && moved.since === judged.since;
  if (!same) {
    // Another process took the folder between our check and our move: give its lock back (never over a newer one).
    try {
      linkSync(aside, file);
    } catch {
      // a newer lock is in place: it will be judged on the next attempt
    }
    rmSync(aside, { force: true });
    return;
  }
  rmSync(aside, { force: true });
}

function lockOf(file: string, body: string, holder: LockHolder): DataLock {
  let released = false;
  return {
    file,
    holder,
    release: () => {
      if (released) return;
      released = true;
      try {
        if (readFileSync(file, 'utf8') === body) rmSync(file, { force: true });
      } catch {
        // already gone
      }
    },
  };
}
