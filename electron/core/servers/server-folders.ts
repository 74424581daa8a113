// Where a stdio server runs when the person gave it no working directory: a folder of its own in the data folder,
// so files a server writes next to itself (caches, screenshots, logs) never land in Switchboard's install or in the
// directory Switchboard was started from.
import { chmod, lstat, mkdir, realpath, rm, rmdir, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
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

/**
 * The mark, next to the folder, that Switchboard created it (a dot name no server id can take, outside the folder so
 * the server never sees it). Only a marked folder is removed with its server.
 */
export function createdMark(dataDir: string, id: string): string {
  return join(dataDir, SERVER_FOLDERS_DIR, `.${id}.created`);
}

/** Creates the server's default folder (and its parent) readable by the person only; returns its path. */
export async function ensureServerFolder(dataDir: string, id: string): Promise<string> {
  const root = join(dataDir, SERVER_FOLDERS_DIR);
  const dir = defaultServerFolder(dataDir, id);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const made = await mkdir(dir, { recursive: true, mode: 0o700 });
  if (made !== undefined) await writeFile(createdMark(dataDir, id), '', { mode: 0o600 });
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

/** What became of a removed server's folder. */
export type FolderRemoval = 'removed' | 'none' | 'kept';

const isCode = (error: unknown, code: string): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Removes a removed server's default folder: one Switchboard created (marked) with what is in it, or an unmarked one
 * (made before folders were marked) only when it is empty; only a real directory (never a symlink: it is not
 * followed), only inside the data folder once every link is resolved. `none`: there was nothing of ours to remove;
 * `kept`: a folder is there but is not provably ours and is not empty, so it stays. A failed removal throws
 * `storage_failed` naming the folder, for the person to hear of.
 */
export async function removeServerFolder(dataDir: string, id: string): Promise<FolderRemoval> {
  const root = join(dataDir, SERVER_FOLDERS_DIR);
  const dir = defaultServerFolder(dataDir, id);
  const mark = createdMark(dataDir, id);
  try {
    const [rootStat, dirStat] = await Promise.all([lstat(root).catch(() => undefined), lstat(dir).catch(() => undefined)]);
    if (!dirStat) {
      await rm(mark, { force: true });
      return 'none';
    }
    const marked = (await lstat(mark).catch(() => undefined))?.isFile() === true;
    if (!rootStat?.isDirectory() || !dirStat.isDirectory()) return 'kept';
    const [realData, realDir] = await Promise.all([realpath(dataDir), realpath(dir)]);
    if (!inside(realData, realDir)) return 'kept';
    if (!marked) {
      // Made before folders were marked, or by the person: only an empty one goes (rmdir refuses a folder with anything
      // in it, atomically, so nothing written there meanwhile is lost).
      try {
        await rmdir(dir);
        return 'removed';
      } catch (error) {
        if (isCode(error, 'ENOTEMPTY') || isCode(error, 'EEXIST')) return 'kept';
        throw error;
      }
    }
    // rm does not follow symlinks inside the folder: a link is removed, never what it points at.
    await rm(dir, { recursive: true, force: false, maxRetries: 2 });
    await rm(mark, { force: true });
    return 'removed';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError(
      'storage_failed',
      `The server's folder ${dir} could not be removed: ${reason}. Remove it by hand if you no longer need it.`,
      {
        serverId: id,
      },
    );
  }
}
