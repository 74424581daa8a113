// Our own migrations of the settings file, from any older schema version to the current one.
import { SETTINGS_SCHEMA_VERSION, SettingsSchema, type Settings } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';

type Migration = (raw: Record<string, unknown>) => Record<string, unknown>;

/** Step n upgrades a file at version n to n + 1. Version 0 is a file written before versioning. */
const MIGRATIONS: Record<number, Migration> = {
  0: (raw) => ({ ...raw, schemaVersion: 1 }),
};

/** Upgrades and validates a parsed settings object; throws config_invalid when it cannot. */
export function migrateSettings(raw: unknown): Settings {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new AppError('config_invalid', 'The settings file is not a JSON object');
  let doc = raw as Record<string, unknown>;
  let version = typeof doc['schemaVersion'] === 'number' ? doc['schemaVersion'] : 0;
  if (version > SETTINGS_SCHEMA_VERSION) {
    throw new AppError('config_invalid', `The settings file was written by a newer Switchboard (schema ${version})`);
  }
  while (version < SETTINGS_SCHEMA_VERSION) {
    const step = MIGRATIONS[version];
    if (!step) throw new AppError('config_invalid', `No migration from settings schema ${version}`);
    doc = step(doc);
    version += 1;
  }
  const parsed = SettingsSchema.safeParse(doc);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new AppError(
      'config_invalid',
      `The settings file does not match the schema (${first ? `${first.path.join('.')}: ${first.message}` : 'invalid'})`,
    );
  }
  return parsed.data;
}
