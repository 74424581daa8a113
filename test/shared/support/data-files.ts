// Every file under a data folder, read as text (subfolders such as logs/ included), for tests that check no
// secret was written anywhere.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The text of every file under `dir`, recursively. */
export function dataFileTexts(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
}
