// Importing and exporting server definitions (other apps' config files): the preview, the import of the chosen
// entries in one settings write, and the export of definitions without their secrets.
import type { ImportFormat, ImportPreview, ImportResult } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { AuthCredentials } from '../auth/credentials.js';
import type { CredentialStore } from '../ports.js';
import type { Definitions } from '../servers/definitions.js';
import type { LaunchGate } from '../servers/launch-gate.js';
import { persistSecrets, splitParsed, type SplitConfig } from '../servers/secrets.js';
import type { ServerDirectory } from '../servers/server-directory.js';
import { TimeSlice } from '../time-slice.js';
import { applyImport, exportServers, previewImport } from './import-service.js';

/** What import works with. */
export interface ServerImportDeps {
  credentials: CredentialStore;
  definitions: Definitions;
  gate: LaunchGate;
  directory: ServerDirectory;
}

/** The import and export of definitions. */
export class ServerImport {
  readonly #d: ServerImportDeps;

  constructor(deps: ServerImportDeps) {
    this.#d = deps;
  }

  preview(text: string, format?: ImportFormat): Promise<ImportPreview> {
    return previewImport(text, format, this.#d.definitions.ids());
  }

  /**
   * Imports the chosen valid entries in one settings write: each entry is validated and its secrets stored, then all
   * are saved together and registered. Linear in the number of entries, and it yields to other calls every few
   * milliseconds (a 2,000-entry import took 72 s, one settings write and one list event per entry, blocking the bridge).
   */
  async import(args: {
    text: string;
    format?: ImportFormat;
    keys?: string[];
    secrets?: Record<string, Record<string, string>>;
  }): Promise<ImportResult> {
    const existing = this.#d.definitions.ids();
    const { configs, bearers, result } = await applyImport(args.text, args.format, existing, args.keys, args.secrets ?? {});
    const accepted: SplitConfig[] = [];
    const taken = new Set(existing);
    const slice = new TimeSlice();
    const auth = new AuthCredentials(this.#d.credentials);
    for (const input of configs) {
      await slice.yieldIfDue();
      if (taken.has(input.id)) {
        result.skipped.push({ key: input.id, reason: `A server with id "${input.id}" already exists` });
        continue;
      }
      try {
        const split = splitParsed(input);
        if (split.writes.size > 0 || split.deletes.length > 0 || split.headerWrites.size > 0) {
          await persistSecrets(this.#d.credentials, split.config.id, split);
          await this.#d.gate.note(split.config.id, split.writes, split.deletes);
        }
        accepted.push(split);
        taken.add(split.config.id);
      } catch (err) {
        result.skipped.push({ key: input.id, reason: err instanceof AppError ? err.message : 'Could not be saved' });
      }
    }
    // Servers added by other calls while this one yielded win their ids.
    const now = this.#d.definitions.ids();
    const saved = accepted.filter((split) => {
      if (!now.has(split.config.id)) return true;
      result.skipped.push({ key: split.config.id, reason: `A server with id "${split.config.id}" already exists` });
      return false;
    });
    // An Authorization: Bearer header becomes the server's stored bearer token, before its first connect (stored only
    // for entries that kept their id, so another server's token is never replaced).
    for (const split of saved) {
      const bearer = bearers[split.config.id];
      if (bearer !== undefined) await auth.setBearer(split.config.id, bearer);
    }
    this.#d.directory.addSplit(saved);
    for (const split of saved) result.added.push(split.config.id);
    return result;
  }

  export(format: ImportFormat, ids?: string[]): { format: ImportFormat; fileName: string; text: string } {
    const all = this.#d.definitions.configs();
    return exportServers(ids ? all.filter((s) => ids.includes(s.id)) : all, format);
  }
}
