// The per-server choices that are not part of a server's definition, so changing them never reconnects it:
// the consent to be asked questions (elicitation) and the folders shared as roots. One JSON file in the data
// folder, written atomically; a corrupt file is moved aside (the caller raises a notice).
import { parseJsonValue, type FromJson } from '../../../shared/optional-fields.js';
import { join } from 'node:path';
import { z } from 'zod';
import type { ElicitationConsent } from '../../../shared/domains/protocol.js';
import type { StoredRoot } from '../roots/root-paths.js';
import { JsonFileWriter, readJsonFile } from '../storage/json-file.js';

/** The file's name in the data folder. */
export const FEATURES_FILE = 'client-features.json';

const FileSchema = z
  .object({
    v: z.literal(1),
    consent: z.record(z.string(), z.enum(['allow', 'deny'])).default({}),
    roots: z
      .record(z.string(), z.array(z.object({ uri: z.string().max(8192), name: z.string().max(200).optional() }).strict()).max(64))
      .default({}),
  })
  .strict();
type FileShape = FromJson<z.infer<typeof FileSchema>>;

/** Consent and roots per server, persisted. */
export class FeatureStore {
  readonly #writer: JsonFileWriter | undefined;
  #data: FileShape = { v: 1, consent: {}, roots: {} };
  /** Set when the file was unreadable and moved aside. */
  readonly quarantined?: { backup: string; reason: string };

  constructor(dir: string | undefined) {
    if (dir === undefined) return;
    const file = join(dir, FEATURES_FILE);
    this.#writer = new JsonFileWriter(file, { delayMs: 50 });
    const read = readJsonFile(file, (raw) => parseJsonValue(FileSchema, raw));
    if (read.kind === 'ok') this.#data = read.value;
    else if (read.kind === 'quarantined') this.quarantined = { backup: read.backup, reason: read.reason };
  }

  /** The person's consent for a server ("ask" until they answered). */
  consent(serverId: string): ElicitationConsent {
    return this.#data.consent[serverId] ?? 'ask';
  }

  /** Records the consent ("ask" forgets it). */
  setConsent(serverId: string, consent: ElicitationConsent): void {
    const next = { ...this.#data.consent };
    if (consent === 'ask') delete next[serverId];
    else next[serverId] = consent;
    this.#data = { ...this.#data, consent: next };
    this.#save();
  }

  /** The folders shared with a server. */
  roots(serverId: string): StoredRoot[] {
    return [...(this.#data.roots[serverId] ?? [])];
  }

  /** Replaces the folders shared with a server. */
  setRoots(serverId: string, roots: StoredRoot[]): void {
    const next = { ...this.#data.roots };
    if (roots.length === 0) delete next[serverId];
    else next[serverId] = roots;
    this.#data = { ...this.#data, roots: next };
    this.#save();
  }

  /** Forgets a removed server. */
  forget(serverId: string): void {
    if (!(serverId in this.#data.consent) && !(serverId in this.#data.roots)) return;
    const consent = { ...this.#data.consent };
    const roots = { ...this.#data.roots };
    delete consent[serverId];
    delete roots[serverId];
    this.#data = { ...this.#data, consent, roots };
    this.#save();
  }

  /** Writes what is pending (shutdown, tests). */
  async flush(): Promise<void> {
    await this.#writer?.flush();
  }

  #save(): void {
    const snapshot = this.#data;
    this.#writer?.schedule(() => snapshot);
  }
}
