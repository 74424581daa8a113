// Splits secret env values out of a server definition (they go to the credential store)
// and masks them for the renderer. The settings file only ever holds `{ secret: true }`.
import type { z } from 'zod';
import { ServerConfigInputSchema, type ServerConfig, type ServerConfigInput } from '../../../shared/config.js';
import type { ServerConfigView } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { CredentialStore } from '../ports.js';

/** Credential-store account name for one secret env value of one server. */
export function envSecretAccount(serverId: string, key: string): string {
  return `env:${serverId}:${key}`;
}

/** A definition ready to store, plus the secret writes and deletes it implies. */
export interface SplitConfig {
  /** Definition with secret values replaced by references. */
  config: ServerConfig;
  /** Secret values to write, by env key. */
  writes: Map<string, string>;
  /** Env keys whose stored secret must be deleted. */
  deletes: string[];
}

/** A definition as entered, after validation (defaults applied; secret env values may still carry their value). */
export type ParsedConfigInput = z.output<typeof ServerConfigInputSchema>;

/** Validates an entered definition; throws config_invalid with every problem. */
export function parseConfigInput(input: unknown): ParsedConfigInput {
  const parsed = ServerConfigInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new AppError('config_invalid', parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; '));
  }
  return parsed.data;
}

/**
 * Validates an entered definition and separates its secrets. `previous` is the stored
 * definition being replaced, so a secret entered without a value keeps the stored one.
 */
export function splitSecrets(input: ServerConfigInput, previous?: ServerConfig): SplitConfig {
  return splitParsed(parseConfigInput(input), previous);
}

/**
 * Separates the secrets of a definition that was validated already (an import validates each entry once). The
 * result differs from the input only in secret env values becoming references, which the stored schema accepts.
 */
export function splitParsed(value: ParsedConfigInput, previous?: ServerConfig): SplitConfig {
  const writes = new Map<string, string>();
  const deletes: string[] = [];
  const previousSecretKeys = new Set(
    previous?.transport.type === 'stdio'
      ? Object.entries(previous.transport.env)
          .filter(([, v]) => typeof v !== 'string')
          .map(([k]) => k)
      : [],
  );
  if (value.transport.type === 'stdio') {
    const env: Record<string, string | { secret: true }> = {};
    for (const [key, v] of Object.entries(value.transport.env)) {
      if (typeof v === 'string') {
        env[key] = v;
        if (previousSecretKeys.has(key)) deletes.push(key);
      } else {
        env[key] = { secret: true };
        if (v.value !== undefined) writes.set(key, v.value);
        else if (!previousSecretKeys.has(key)) {
          throw new AppError('config_invalid', `transport.env.${key}: a value is required for a new secret`);
        }
      }
    }
    for (const key of previousSecretKeys) if (!(key in env)) deletes.push(key);
    const config: ServerConfig = { ...value, transport: { ...value.transport, env } };
    return { config, writes, deletes };
  }
  for (const key of previousSecretKeys) deletes.push(key);
  return { config: { ...value, transport: value.transport }, writes, deletes };
}

/** Applies the secret writes and deletes of a split definition to the credential store. */
export async function persistSecrets(store: CredentialStore, serverId: string, split: SplitConfig): Promise<void> {
  for (const [key, secret] of split.writes) await store.set(envSecretAccount(serverId, key), secret);
  for (const key of split.deletes) await store.delete(envSecretAccount(serverId, key));
}

/** Deletes every secret env value a stored definition references. */
export async function deleteSecrets(store: CredentialStore, config: ServerConfig): Promise<void> {
  if (config.transport.type !== 'stdio') return;
  for (const [key, v] of Object.entries(config.transport.env)) {
    if (typeof v !== 'string') await store.delete(envSecretAccount(config.id, key));
  }
}

/** Resolves a stored stdio env map to real values for spawning (secrets read from the store). */
export async function resolveEnv(store: CredentialStore, config: ServerConfig): Promise<Record<string, string>> {
  if (config.transport.type !== 'stdio') return {};
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(config.transport.env)) {
    if (typeof v === 'string') out[key] = v;
    else {
      const secret = await store.get(envSecretAccount(config.id, key));
      if (secret !== null) out[key] = secret;
    }
  }
  return out;
}

/** The definition as the renderer may see it: secret values replaced by "is set" flags. */
export async function maskConfig(store: CredentialStore, config: ServerConfig): Promise<ServerConfigView> {
  if (config.transport.type !== 'stdio') {
    return { ...config, transport: { ...config.transport } };
  }
  const env: Record<string, string | { secret: true; isSet: boolean }> = {};
  for (const [key, v] of Object.entries(config.transport.env)) {
    env[key] = typeof v === 'string' ? v : { secret: true, isSet: (await store.get(envSecretAccount(config.id, key))) !== null };
  }
  return { ...config, transport: { ...config.transport, env } };
}
