// The running app's control file, `<dataDir>/control.json`: where the `switchboard` command finds the app that holds
// the data folder (its control door's URL, the shell's pid and the per-launch token). The shell writes it (mode 0600,
// atomically) once its door listens and removes it when it stops; the command reads it. Kept apart from the door (no
// HTTP server, no zod) so the command's start-up loads only node:fs to read it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The control file's name in the data folder. */
export const CONTROL_FILE = 'control.json';
/** The version of the file's format and of the door's protocol. */
export const CONTROL_VERSION = 1;
/** The door's path for one contract call (POST, JSON `{method, args}`, answered with the contract's envelope). */
export const CONTROL_CALL_PATH = '/v1/call';
/** The door's path that says it is there and takes this token (GET, answered `{version, pid}`). */
export const CONTROL_HELLO_PATH = '/v1/hello';

/** What the control file holds. */
export interface ControlFile {
  version: typeof CONTROL_VERSION;
  /** The door's base URL: http://127.0.0.1:PORT. */
  url: string;
  /** The shell's process id (the file of a shell that died is stale). */
  pid: number;
  /** The per-launch token the door takes as `Authorization: Bearer TOKEN`. */
  token: string;
}

/** The control file's path in a data folder. */
export function controlPath(dataDir: string): string {
  return join(dataDir, CONTROL_FILE);
}

/** The file's content when it has the expected shape, else undefined (a partial or foreign file is no door). */
export function parseControlFile(text: string): ControlFile | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { version, url, pid, token } = raw as Record<string, unknown>;
  if (version !== CONTROL_VERSION) return undefined;
  if (typeof url !== 'string' || !/^http:\/\/127\.0\.0\.1:\d{1,5}$/.test(url)) return undefined;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  return { version, url, pid, token };
}

/** Reads the control file: undefined when missing or malformed. */
export function readControlFile(dataDir: string): ControlFile | undefined {
  let text: string;
  try {
    text = readFileSync(controlPath(dataDir), 'utf8');
  } catch {
    return undefined;
  }
  return parseControlFile(text);
}

/** Whether a process with this pid is running (EPERM: it is, under another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
