// Where a stdio server runs when the person gave it no working directory: a folder of its own in the data folder,
// so files a server writes next to itself (caches, screenshots, logs) never land in Switchboard's install or in the
// directory Switchboard was started from.
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerConfig } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';

/** The data folder's subfolder holding one working folder per server. */
export const SERVER_FOLDERS_DIR = 'server-folders';

/** The working directory a server's process gets: the person's own cwd when set, else its folder in the data folder. */
export function serverWorkDir(dataDir: string, config: ServerConfig): string | undefined {
  const t = config.transport;
  if (t.type !== 'stdio') return undefined;
  return t.cwd ?? defaultServerFolder(dataDir, config.id);
}

/** The default per-server folder (server ids are validated slugs, so the id is a safe path segment). */
export function defaultServerFolder(dataDir: string, id: string): string {
  return join(dataDir, SERVER_FOLDERS_DIR, id);
}

/** Creates the server's default folder (and its parent) readable by the person only; returns its path. */
export async function ensureServerFolder(dataDir: string, id: string): Promise<string> {
  const root = join(dataDir, SERVER_FOLDERS_DIR);
  const dir = defaultServerFolder(dataDir, id);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode is masked by the umask and leaves an existing folder as it was.
  await chmod(root, 0o700);
  await chmod(dir, 0o700);
  return dir;
}

/** The definition with its working directory filled in for launch (the stored definition is left as it was). */
export async function withLaunchWorkDir(dataDir: string, config: ServerConfig): Promise<ServerConfig> {
  const t = config.transport;
  if (t.type !== 'stdio' || t.cwd !== undefined) return config;
  let cwd: string;
  try {
    cwd = await ensureServerFolder(dataDir, config.id);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError('spawn_failed', `Could not create the server's folder ${defaultServerFolder(dataDir, config.id)}: ${reason}`, {
      serverId: config.id,
      evidence: { phase: 'spawn' },
    });
  }
  return { ...config, transport: { ...t, cwd } };
}
