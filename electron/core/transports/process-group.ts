// Process-group helpers for stdio children: signal a whole group and tell whether any member is still running.
import { readdirSync, readFileSync } from 'node:fs';

/** Sends a signal to every process in the group led by `pgid`; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * True while some process of the group is still running. On Linux, members that are zombies (dead but not yet
 * reaped, which happens when the init process of a container does not reap orphans) count as gone.
 */
export function groupAlive(pgid: number): boolean {
  if (process.platform === 'linux') {
    const members = linuxGroupMembers(pgid);
    if (members !== null) return members.some((m) => m.state !== 'Z' && m.state !== 'X');
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True while the process exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform === 'linux') {
    const state = linuxState(pid);
    if (state === 'Z' || state === 'X') return false;
  }
  return true;
}

interface ProcEntry {
  pid: number;
  state: string;
}

/** Members of a process group read from /proc, or null when /proc is unreadable. */
function linuxGroupMembers(pgid: number): ProcEntry[] | null {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return null;
  }
  const members: ProcEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat !== null && stat.pgrp === pgid) members.push({ pid: Number(name), state: stat.state });
  }
  return members;
}

function linuxState(pid: number): string | null {
  return readStat(pid)?.state ?? null;
}

function readStat(pid: number): { state: string; pgrp: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Format: pid (comm) state ppid pgrp ...; comm may contain spaces and parentheses.
  const close = text.lastIndexOf(')');
  if (close === -1) return null;
  const fields = text.slice(close + 2).split(' ');
  const state = fields[0];
  const pgrp = Number(fields[2]);
  if (state === undefined || !Number.isFinite(pgrp)) return null;
  return { state, pgrp };
}

/** Polls `done` every `intervalMs` until it returns true or `timeoutMs` passes; resolves to the last answer. */
export async function waitFor(done: () => boolean, timeoutMs: number, intervalMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (done()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
