// What the shell tests wait for: a value to appear, and processes to be running or gone (zombies, never reaped here,
// are not running).
import { listProcesses } from '../../../testing/process-tree.js';

/** Whether a process is running. */
export function alive(pid: number): boolean {
  return listProcesses().some((p) => p.pid === pid && p.state !== 'Z');
}

/** The running children of a process. */
export function childrenOf(pid: number): number[] {
  return listProcesses()
    .filter((p) => p.ppid === pid && p.state !== 'Z')
    .map((p) => p.pid);
}

/** Polls `probe` until it gives a value (not undefined or false), or fails naming `what`. */
export async function until<T>(what: string, probe: () => T | undefined | false, limitMs = 20_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
