// What a person allowed each server's apps (browser permissions, pop-ups, asking for model replies), kept in one JSON file next to the
// settings. Everything is denied until granted; a corrupt file is moved aside (so nothing is granted by accident)
// and the person is told, since grants they made are gone; a failed write is reported too.
import { parseJsonValue } from '../../../shared/optional-fields.js';
import { join } from 'node:path';
import { z } from 'zod';
import type { AppGrants } from '../../../shared/domains/apps.js';
import { AppGrantsSchema } from '../../../shared/domains/apps.js';
import type { ReportProblem } from '../problems.js';
import { JsonFileWriter, readJsonFile } from '../storage/json-file.js';

/** The grants file's name in the data folder. */
export const GRANTS_FILE = 'app-grants.json';

const FileSchema = z.object({ version: z.literal(1), servers: z.record(z.string(), AppGrantsSchema) }).strict();

/** Nothing granted. */
export const NO_GRANTS: AppGrants = { permissions: [], popups: false };

/** Per-server grants; in memory when no folder is given. */
export class GrantsStore {
  readonly #grants = new Map<string, AppGrants>();
  readonly #writer: JsonFileWriter | undefined;
  /** Set when the file on disk could not be used and was moved aside. */
  readonly loadProblem: string | undefined;

  /** `report` hears of a file moved aside (as a notice at once) and of failed writes. */
  constructor(dir: string | undefined, report: ReportProblem = () => undefined) {
    if (dir === undefined) return;
    const file = join(dir, GRANTS_FILE);
    this.#writer = new JsonFileWriter(file, {
      onError: (err) =>
        report({
          id: 'app-grants-write-failed',
          level: 'error',
          notify: true,
          message: `App permissions could not be saved (${err instanceof Error ? err.message : String(err)}); a change made now may be lost at restart.`,
        }),
    });
    const read = readJsonFile(file, (raw) => parseJsonValue(FileSchema, raw));
    if (read.kind === 'ok') for (const [id, g] of Object.entries(read.value.servers)) this.#grants.set(id, g);
    if (read.kind === 'quarantined') {
      this.loadProblem = `App permissions were unreadable (${read.reason}); moved to ${read.backup}. Every app permission is denied until granted again.`;
      report({ id: 'app-grants-corrupt', notify: true, message: this.loadProblem });
    }
  }

  /** A server's grants (nothing granted when none were stored). */
  get(serverId: string): AppGrants {
    const g = this.#grants.get(serverId) ?? NO_GRANTS;
    return { permissions: [...g.permissions], popups: g.popups, ...(g.sampling === true ? { sampling: true } : {}) };
  }

  /** Stores a server's grants. */
  set(serverId: string, grants: AppGrants): AppGrants {
    const stored: AppGrants = {
      permissions: [...new Set(grants.permissions)].sort(),
      popups: grants.popups,
      ...(grants.sampling === true ? { sampling: true } : {}),
    };
    if (stored.permissions.length === 0 && !stored.popups && stored.sampling !== true) this.#grants.delete(serverId);
    else this.#grants.set(serverId, stored);
    this.#save();
    return this.get(serverId);
  }

  /** Forgets a removed server. */
  forget(serverId: string): void {
    if (this.#grants.delete(serverId)) this.#save();
  }

  /** Writes pending changes now. */
  flush(): Promise<void> {
    return this.#writer?.flush() ?? Promise.resolve();
  }

  #save(): void {
    this.#writer?.schedule(() => ({ version: 1, servers: Object.fromEntries(this.#grants) }));
  }
}
