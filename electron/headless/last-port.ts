// Headless keeps the port of its last run when nothing else took it, so a bookmarked or open tab finds it again after
// a restart (its token still changes: the tab then says where the new link is).
import { join } from 'node:path';
import { readJsonFile, writeJsonAtomic } from '../core/storage/json-file.js';

/** The file in the data folder holding the last run's bridge port. */
export const LAST_PORT_FILE = 'headless-port.json';

function parseLastPort(raw: unknown): number | undefined {
  const port = typeof raw === 'object' && raw !== null ? (raw as { port?: unknown }).port : undefined;
  return typeof port === 'number' && Number.isInteger(port) && port > 0 && port <= 65535 ? port : undefined;
}

/** The port the last run listened on, if it left a valid record. A corrupt record is moved aside, and said. */
export function readLastPort(dataDir: string, say: (line: string) => void): number | undefined {
  const read = readJsonFile(join(dataDir, LAST_PORT_FILE), parseLastPort);
  if (read.kind === 'quarantined') say(`Switchboard: the last run's port record was unreadable (${read.reason}); moved to ${read.backup}.`);
  return read.kind === 'ok' ? read.value : undefined;
}

/** Records the port this run listens on. */
export function writeLastPort(dataDir: string, port: number): Promise<void> {
  return writeJsonAtomic(join(dataDir, LAST_PORT_FILE), { port });
}

/**
 * Listens on the port asked for; without one, on the last run's port, or any free port when that one is taken.
 * Says which when the last port could not be had.
 */
export async function listenOnKeptPort<T>(
  asked: number | undefined,
  lastPort: number | undefined,
  listen: (port: number) => Promise<T>,
  say: (line: string) => void,
): Promise<T> {
  if (asked !== undefined || lastPort === undefined) return listen(asked ?? 0);
  try {
    return await listen(lastPort);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' && (err as NodeJS.ErrnoException).code !== 'EACCES') throw err;
    say(`Switchboard: port ${lastPort} (the last run's) is in use, so this run listens on another; open tabs need the new link.`);
    return listen(0);
  }
}
