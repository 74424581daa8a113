// The gateway's settings file (`gateway.json` in the data folder): whether it is on, its port, and the clients
// with their profiles and last activity. Token digests live in the credential store, never here. Written with
// the one atomic JSON helper; a corrupt file is moved aside and reported, never silently dropped.
import { parseJsonValue } from '../../../shared/optional-fields.js';
import { join } from 'node:path';
import { z } from 'zod';
import { GatewayClientNameSchema, GatewayProfileSchema } from '../../../shared/domains/gateway.js';
import type { GatewayLastActivity, GatewayProfile } from '../../../shared/domains/gateway.js';
import { AppError } from '../../../shared/errors.js';
import { JsonFileWriter, readJsonFile } from '../storage/json-file.js';

/** The settings file's name in the data folder. */
export const GATEWAY_FILE = 'gateway.json';

/** One stored client. */
export interface StoredClient {
  id: string;
  name: string;
  profile: GatewayProfile;
  createdAt: number;
  lastActivity?: GatewayLastActivity;
  /** Tools the person allowed without asking, each with the fingerprint of the definition they allowed. */
  trusted?: TrustedTool[];
}

/** One "always allow" of a client. */
export interface TrustedTool {
  tool: string;
  fingerprint: string;
}

/** Tools one client may have allowed (a bound on the file, far above what a person clicks). */
export const MAX_TRUSTED_TOOLS = 2000;

/** The whole stored state. */
export interface GatewaySettings {
  enabled: boolean;
  port?: number;
  clients: StoredClient[];
}

const FileSchema = z.object({
  version: z.literal(1),
  enabled: z.boolean(),
  port: z.number().int().min(1).max(65535).optional(),
  clients: z
    .array(
      z.object({
        id: z.string().regex(/^[0-9a-f]{16}$/),
        name: GatewayClientNameSchema,
        profile: GatewayProfileSchema,
        createdAt: z.number(),
        lastActivity: z.object({ at: z.number(), summary: z.string().max(500) }).optional(),
        trusted: z
          .array(z.object({ tool: z.string().min(1).max(256), fingerprint: z.string().min(1).max(200) }))
          .max(MAX_TRUSTED_TOOLS)
          .optional(),
      }),
    )
    .max(1000),
});

/** Loads and saves the gateway settings. */
export class GatewayStore {
  readonly file: string;
  readonly #writer: JsonFileWriter;
  #settings: GatewaySettings = { enabled: false, clients: [] };
  /** A problem found while loading, for a notice. */
  loadNotice: string | undefined;

  constructor(dataDir: string) {
    this.file = join(dataDir, GATEWAY_FILE);
    this.#writer = new JsonFileWriter(this.file, { delayMs: 500 });
    const read = readJsonFile(this.file, (raw) => parseJsonValue(FileSchema, raw));
    if (read.kind === 'ok') {
      const { enabled, port, clients } = read.value;
      this.#settings = { enabled, ...(port !== undefined ? { port } : {}), clients };
    } else if (read.kind === 'quarantined') {
      this.loadNotice = `The gateway settings were unreadable (${read.reason}); they were moved aside to ${read.backup} and the gateway starts off with no clients.`;
    }
  }

  /** The current settings (read-only view). */
  get settings(): Readonly<GatewaySettings> {
    return this.#settings;
  }

  /** Replaces the settings and writes them now (durable before the caller reports success); a failed write keeps the old ones. */
  async save(next: GatewaySettings): Promise<void> {
    const previous = this.#settings;
    this.#settings = next;
    this.#writer.schedule(() => this.#serialize(this.#settings));
    try {
      await this.#writer.flush();
    } catch (err) {
      this.#settings = previous;
      throw new AppError('storage_failed', `The gateway settings could not be saved: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Records a client's last activity; written a moment later (activity is frequent). */
  touch(id: string, activity: GatewayLastActivity): void {
    const client = this.#settings.clients.find((c) => c.id === id);
    if (!client) return;
    client.lastActivity = activity;
    this.#writer.schedule(() => this.#serialize(this.#settings));
  }

  /** Writes pending activity now. */
  async flush(): Promise<void> {
    await this.#writer.flush().catch(() => undefined);
  }

  #serialize(s: GatewaySettings): unknown {
    return { version: 1, enabled: s.enabled, ...(s.port !== undefined ? { port: s.port } : {}), clients: s.clients };
  }
}
