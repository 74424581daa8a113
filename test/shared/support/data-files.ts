// Every file under a data folder, read as text (subfolders such as logs/ included), for tests that check no
// secret was written anywhere.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A listed file that was gone when read: an atomic write renamed its temp file into place meanwhile. */
const vanished = (err: unknown): boolean => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** One pass over the folder, or undefined when a file vanished between listing and reading. */
function readOnce(dir: string): string[] | undefined {
  const texts: string[] = [];
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    try {
      texts.push(readFileSync(join(e.parentPath, e.name), 'utf8'));
    } catch (err) {
      if (vanished(err)) return undefined;
      throw err;
    }
  }
  return texts;
}

/**
 * The text of every file under `dir`, recursively. The app may be writing while a test reads: when a listed
 * file is gone by the time it is read (a temp file renamed over its target), the whole folder is read again, so
 * the texts come from one pass in which every listed file was read, new content included.
 */
export function dataFileTexts(dir: string): string[] {
  for (let pass = 0; pass < 50; pass++) {
    const texts = readOnce(dir);
    if (texts) return texts;
  }
  throw new Error(`files under ${dir} kept vanishing while being read (50 passes)`);
}
