// Which processes a launched Switchboard owns, and whether any of them outlived it. Linux reads /proc; macOS and
// the BSDs ask `ps`. A process is identified by its pid and start time (pids are reused), and zombies are ignored:
// they hold no resources and PID 1 in a container may never reap them.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** One process as seen at one moment. */
export interface ProcessInfo {
  /** Process id. */
  pid: number;
  /** Parent process id. */
  ppid: number;
  /** Process group id. */
  pgid: number;
  /** State letter (R, S, D, T, Z, …). */
  state: string;
  /** Start time in the platform's own units; with the pid it identifies the process. */
  start: string;
  /** Command line (or the program name when the command line is unreadable), for messages. */
  command: string;
}

/** Whether this platform can list processes for the leftover check. */
export function canListProcesses(): boolean {
  return process.platform !== 'win32';
}

/** Parses one /proc/<pid>/stat line (the program name may contain spaces and parentheses). */
export function parseProcStat(text: string): Omit<ProcessInfo, 'command'> & { name: string } {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`Unreadable /proc stat line: ${text.slice(0, 80)}`);
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // Fields after the name: state(3) ppid(4) pgrp(5) … starttime(22); rest[0] is field 3.
  return {
    pid: Number(text.slice(0, open).trim()),
    name: text.slice(open + 1, close),
    state: rest[0] ?? '?',
    ppid: Number(rest[1]),
    pgid: Number(rest[2]),
    start: rest[19] ?? '',
  };
}

function readProc(pid: string): ProcessInfo | null {
  try {
    const stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    let command = stat.name;
    try {
      const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (raw.length > 0) command = raw.replace(/\0+$/, '').split('\0').join(' ');
    } catch {
      // gone or unreadable: keep the program name
    }
    return { pid: stat.pid, ppid: stat.ppid, pgid: stat.pgid, state: stat.state, start: stat.start, command };
  } catch {
    return null; // it ended while we were reading
  }
}

function listWithPs(): ProcessInfo[] {
  const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=,lstart=,command='], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const procs: ProcessInfo[] = [];
  for (const line of out.split('\n')) {
    // lstart is five words: "Mon Jan  1 10:00:00 2024".
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+\s+\S+\s+\d+\s+[\d:]+\s+\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    procs.push({ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), state: m[4]!.slice(0, 1), start: m[5]!, command: m[6]! });
  }
  return procs;
}

/** Every process on the machine right now. */
export function listProcesses(): ProcessInfo[] {
  if (process.platform === 'linux') {
    const procs: ProcessInfo[] = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const p = readProc(name);
      if (p) procs.push(p);
    }
    return procs;
  }
  if (!canListProcesses()) return [];
  return listWithPs();
}

/** The process group of this process (the test runner), which the leftover check never touches. */
export function ownProcessGroup(): number | undefined {
  try {
    if (process.platform === 'linux') return parseProcStat(readFileSync('/proc/self/stat', 'utf8')).pgid;
    if (!canListProcesses()) return undefined;
    return Number(execFileSync('ps', ['-o', 'pgid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim());
  } catch {
    return undefined;
  }
}

/** The live (non-zombie) descendants of `rootPid` in `all`, children before grandchildren. */
export function descendantsOf(rootPid: number, all: ProcessInfo[]): ProcessInfo[] {
  const byParent = new Map<number, ProcessInfo[]>();
  for (const p of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const found: ProcessInfo[] = [];
  const queue = [rootPid];
  const seen = new Set<number>([rootPid]);
  while (queue.length > 0) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      queue.push(child.pid);
      if (child.state !== 'Z') found.push(child);
    }
  }
  return found;
}

const key = (p: ProcessInfo): string => `${p.pid}:${p.start}`;

/**
 * Remembers every process that belonged to one launched program (its descendants, and the members of their process
 * groups), sampled while it runs, so that after it exits the ones still alive can be named — even those re-parented
 * to PID 1 when their parent died.
 */
export class ProcessWatch {
  readonly #rootPid: number;
  readonly #ownGroup: number | undefined;
  readonly #known = new Map<string, ProcessInfo>();
  #root: ProcessInfo | undefined;

  /** Watches `rootPid` and everything it starts. */
  constructor(rootPid: number) {
    this.#rootPid = rootPid;
    this.#ownGroup = ownProcessGroup();
    this.sample();
  }

  /** Records the processes that belong to the program now. Cheap enough to call every few hundred ms. */
  sample(): void {
    if (!canListProcesses()) return;
    const all = listProcesses();
    const root = all.find((p) => p.pid === this.#rootPid && (this.#root === undefined || p.start === this.#root.start));
    if (root && root.state !== 'Z') this.#root = root;
    const tree = root && root.state !== 'Z' ? [root, ...descendantsOf(root.pid, all)] : [];
    for (const p of tree) this.#known.set(key(p), p);
    // Members of a known process group that are no longer below the root (their parent died first).
    const groups = new Set([...this.#known.values()].map((p) => p.pgid).filter((g) => g !== this.#ownGroup && g > 1));
    for (const p of all) if (groups.has(p.pgid) && p.state !== 'Z' && p.pid !== process.pid) this.#known.set(key(p), p);
  }

  /** Every process seen so far (the root included). */
  known(): ProcessInfo[] {
    return [...this.#known.values()];
  }

  /** The known processes still alive (same pid and start time, not a zombie), the root included. */
  alive(): ProcessInfo[] {
    if (!canListProcesses()) return [];
    const now = new Map(listProcesses().map((p) => [key(p), p]));
    return this.known().filter((p) => {
      const current = now.get(key(p));
      return current !== undefined && current.state !== 'Z';
    });
  }
}

/** Sends SIGKILL to each process (and to its group when it leads one that is not the caller's). Never throws. */
export function killAll(procs: ProcessInfo[]): void {
  const ownGroup = ownProcessGroup();
  for (const p of procs) {
    try {
      if (p.pgid === p.pid && p.pgid !== ownGroup) process.kill(-p.pgid, 'SIGKILL');
    } catch {
      // already gone
    }
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** A one-line description of a process for a failure message (bounded, control characters removed). */
export function describeProcess(p: ProcessInfo): string {
  const cmd = p.command.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return `pid ${p.pid} (${cmd.length > 200 ? `${cmd.slice(0, 200)}…` : cmd})`;
}
