// The record of live stdio process groups (`<data folder>/processes.json`), so that groups which outlive a crash of
// the host (a server that ignores the end of its stdin once the host is killed with kill -9) can be offered for
// ending at the next start. Only groups recorded here and re-verified right before each signal are ever signalled:
// the group must still exist and, on Linux, its leader's start time (/proc/<pid>/stat field 22, with the boot id)
// must equal the recorded one, so a reused pid is never mistaken for ours. A group whose leader has exited while
// other members run on cannot be verified and is not offered. Windows has no process groups: nothing is recorded.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppNotice, LeftoverProcess } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { isObject } from '../json.js';
import { processStartToken } from '../storage/data-lock.js';
import { readJsonFile, JsonFileWriter } from '../storage/json-file.js';
import { sanitizeText, truncate } from '../text.js';
import { groupAlive, signalGroup, waitFor } from '../transports/process-group.js';

/** Longest command line kept for display. */
export const COMMAND_DISPLAY_CHARS = 500;
/** Most entries read back from the file (anything beyond is ignored). */
const MAX_ENTRIES = 1000;
/** How long ending a leftover waits after SIGTERM before SIGKILL, and after SIGKILL. */
export const END_TIMINGS = { termGraceMs: 2000, killWaitMs: 3000 };

/** What a stdio transport reports about the process group it spawned and released. */
export interface ProcessSink {
  /** A child was spawned as the leader of its own process group. */
  spawned(child: { pid: number; serverId: string; command: string; args: readonly string[] }): void;
  /** The group led by `pid` has no running member left. */
  ended(pid: number): void;
}

/** One recorded group as stored in the file. */
interface ProcessEntry {
  pgid: number;
  pid: number;
  serverId: string;
  command: string;
  startedAt: string;
  /** Linux: the leader's start time in clock ticks after boot (decimal string). */
  startTicks?: string;
  /** Linux: the boot the start ticks count from. */
  bootId?: string;
}

/** The command line shown for a group: argv joined (arguments with spaces quoted), control characters removed, bounded. */
export function displayCommand(command: string, args: readonly string[]): string {
  const quote = (a: string): string => (a === '' || /[\s"']/.test(a) ? JSON.stringify(a) : a);
  return truncate(sanitizeText([command, ...args].map(quote).join(' ')), COMMAND_DISPLAY_CHARS);
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

const validPid = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 1 && v < 2 ** 31;

function parseEntries(raw: unknown): ProcessEntry[] {
  if (!isObject(raw) || !Array.isArray(raw.groups)) throw new Error('the file does not hold a list of process groups');
  const out: ProcessEntry[] = [];
  for (const e of raw.groups.slice(0, MAX_ENTRIES)) {
    // We only ever record group leaders (pgid = pid); anything else is not ours.
    if (!isObject(e) || !validPid(e.pgid) || e.pid !== e.pgid) continue;
    if (typeof e.serverId !== 'string' || typeof e.command !== 'string' || typeof e.startedAt !== 'string') continue;
    out.push({
      pgid: e.pgid,
      pid: e.pgid,
      serverId: truncate(sanitizeText(e.serverId), 200),
      command: truncate(sanitizeText(e.command), COMMAND_DISPLAY_CHARS),
      startedAt: truncate(sanitizeText(e.startedAt), 40),
      ...(typeof e.startTicks === 'string' ? { startTicks: e.startTicks } : {}),
      ...(typeof e.bootId === 'string' ? { bootId: e.bootId } : {}),
    });
  }
  return out;
}

/** Live process groups of this run plus leftovers of an earlier one, kept in `<dir>/processes.json`. */
export class ProcessRecord implements ProcessSink {
  readonly #file: string;
  readonly #writer: JsonFileWriter;
  readonly #live = new Map<number, ProcessEntry>();
  readonly #leftovers = new Map<number, ProcessEntry>();
  readonly #enabled = process.platform !== 'win32';
  readonly #bootId = process.platform === 'linux' ? bootId() : undefined;

  readonly #onNotice: (notice: AppNotice) => void;

  constructor(dir: string, opts: { delayMs?: number; onNotice?: (notice: AppNotice) => void } = {}) {
    this.#file = join(dir, 'processes.json');
    this.#onNotice = opts.onNotice ?? (() => undefined);
    // Written soon after each change: the point of the file is to be current when the host is killed.
    this.#writer = new JsonFileWriter(this.#file, { delayMs: opts.delayMs ?? 20 });
  }

  /** The file the record lives in. */
  get file(): string {
    return this.#file;
  }

  /**
   * Reads the previous run's file: groups still running and verified as ours become leftovers, the rest is dropped.
   * Returns how many leftovers there are (a corrupt file is moved aside and counts none).
   */
  load(): number {
    if (!this.#enabled) return 0;
    let read;
    try {
      read = readJsonFile(this.#file, parseEntries);
    } catch {
      return 0;
    }
    if (read.kind === 'quarantined') {
      this.#onNotice({
        id: 'processes-file-corrupt',
        level: 'warning',
        message: `The record of server processes was unreadable (${read.reason}) and was moved to ${read.backup}; server processes an earlier run left running cannot be listed.`,
      });
    }
    if (read.kind !== 'ok') return 0;
    for (const entry of read.value) if (this.#stillOurs(entry)) this.#leftovers.set(entry.pgid, entry);
    this.#save();
    return this.#leftovers.size;
  }

  spawned(child: { pid: number; serverId: string; command: string; args: readonly string[] }): void {
    if (!this.#enabled || !validPid(child.pid)) return;
    const startTicks = process.platform === 'linux' ? processStartToken(child.pid) : undefined;
    this.#live.set(child.pid, {
      pgid: child.pid,
      pid: child.pid,
      serverId: child.serverId,
      command: displayCommand(child.command, child.args),
      startedAt: new Date().toISOString(),
      ...(startTicks !== undefined ? { startTicks } : {}),
      ...(this.#bootId !== undefined ? { bootId: this.#bootId } : {}),
    });
    this.#save();
  }

  ended(pid: number): void {
    if (this.#live.delete(pid)) this.#save();
  }

  /** Leftovers from an earlier run that are still running and still ours (checked now). */
  leftovers(): LeftoverProcess[] {
    const before = this.#leftovers.size;
    for (const [pgid, entry] of this.#leftovers) if (!this.#stillOurs(entry)) this.#leftovers.delete(pgid);
    if (this.#leftovers.size !== before) this.#save();
    return [...this.#leftovers.values()].map(toDisplay);
  }

  /**
   * Ends the given leftover groups (SIGTERM, then SIGKILL after a grace). Every pgid must be a listed leftover
   * (`not_found` otherwise, and nothing is signalled); a group that is gone or no longer verifies is skipped.
   */
  async end(pgids: readonly number[], timings = END_TIMINGS): Promise<{ ended: LeftoverProcess[]; remaining: LeftoverProcess[] }> {
    const unknown = pgids.filter((p) => !this.#leftovers.has(p));
    if (unknown.length > 0) {
      throw new AppError('not_found', `Not a process group from an earlier run: ${unknown.slice(0, 10).join(', ')}`);
    }
    const targets: ProcessEntry[] = [];
    for (const pgid of new Set(pgids)) {
      const entry = this.#leftovers.get(pgid);
      if (entry === undefined) continue;
      // Verified right before the signal; once signalled, the group id stays taken while any member runs.
      if (this.#stillOurs(entry) && signalGroup(pgid, 'SIGTERM')) targets.push(entry);
      else this.#leftovers.delete(pgid);
    }
    const allGone = (): boolean => targets.every((t) => !groupAlive(t.pgid));
    await waitFor(allGone, timings.termGraceMs);
    for (const t of targets) if (groupAlive(t.pgid)) signalGroup(t.pgid, 'SIGKILL');
    await waitFor(allGone, timings.killWaitMs);
    const ended: LeftoverProcess[] = [];
    const remaining: LeftoverProcess[] = [];
    for (const t of targets) {
      if (groupAlive(t.pgid)) remaining.push(toDisplay(t));
      else {
        ended.push(toDisplay(t));
        this.#leftovers.delete(t.pgid);
      }
    }
    this.#save();
    return { ended, remaining };
  }

  /** Writes what is pending now (shutdown). */
  flush(): Promise<void> {
    return this.#writer.flush();
  }

  #stillOurs(entry: ProcessEntry): boolean {
    if (entry.pgid === process.pid || !groupAlive(entry.pgid)) return false;
    if (process.platform !== 'linux') return true;
    if (entry.startTicks === undefined) return false;
    if (entry.bootId !== undefined && this.#bootId !== undefined && entry.bootId !== this.#bootId) return false;
    return processStartToken(entry.pid) === entry.startTicks;
  }

  #save(): void {
    this.#writer.schedule(() => ({ groups: [...this.#leftovers.values(), ...this.#live.values()] }));
  }
}

function toDisplay(e: ProcessEntry): LeftoverProcess {
  return { pgid: e.pgid, serverId: e.serverId, command: e.command, startedAt: e.startedAt };
}
