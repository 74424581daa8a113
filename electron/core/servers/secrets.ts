// Splits secret env values and secret header values out of a server definition (they go to the credential store)
// and masks them for the renderer. The settings file only ever holds `{ secret: true }`. Headers whose names carry
// credentials by convention (X-Api-Key, *-Token, …) are made secret even when entered or imported as plain text.
import type { z } from 'zod';
import { isSensitiveHeaderName, ServerConfigInputSchema, type ServerConfig, type ServerConfigInput } from '../../../shared/config.js';
import type { ServerConfigView } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { CredentialStore } from '../ports.js';

/** Credential-store account name for one secret env value of one server. */
export function envSecretAccount(serverId: string, key: string): string {
  return `env:${serverId}:${key}`;
}

/** Credential-store account name for one secret header value of one server (header names compared lower-cased). */
export function headerSecretAccount(serverId: string, name: string): string {
  return `header:${serverId}:${name.toLowerCase()}`;
}

/** A definition ready to store, plus the secret writes and deletes it implies. */
export interface SplitConfig {
  /** Definition with secret values replaced by references. */
  config: ServerConfig;
  /** Secret values to write, by env key. */
  writes: Map<string, string>;
  /** Env keys whose stored secret must be deleted. */
  deletes: string[];
  /** Secret header values to write, by header name. */
  headerWrites: Map<string, string>;
  /** Header names whose stored secret must be deleted. */
  headerDeletes: string[];
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
  const headerWrites = new Map<string, string>();
  const headerDeletes: string[] = [];
  const previousSecretKeys = secretKeysOf(previous?.transport.type === 'stdio' ? previous.transport.env : {});
  const previousSecretHeaders = secretKeysOf(
    previous !== undefined && previous.transport.type !== 'stdio' ? previous.transport.headers : {},
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
    for (const name of previousSecretHeaders) headerDeletes.push(name);
    const config: ServerConfig = { ...value, transport: { ...value.transport, env } };
    return { config, writes, deletes, headerWrites, headerDeletes };
  }
  const headers: Record<string, string | { secret: true }> = {};
  for (const [name, v] of Object.entries(value.transport.headers)) {
    if (typeof v === 'string' && !isSensitiveHeaderName(name)) {
      headers[name] = v;
      continue;
    }
    // A credential-like name is kept secret even when it arrived as plain text.
    const secretValue = typeof v === 'string' ? v : v.value;
    headers[name] = { secret: true };
    if (secretValue !== undefined) headerWrites.set(name, secretValue);
    else if (!previousSecretHeaders.has(name)) {
      throw new AppError('config_invalid', `transport.headers.${name}: a value is required for a new secret`);
    }
  }
  const kept = new Set(
    Object.keys(headers)
      .filter((n) => typeof headers[n] !== 'string')
      .map((n) => n.toLowerCase()),
  );
  for (const name of previousSecretHeaders) if (!kept.has(name.toLowerCase())) headerDeletes.push(name);
  for (const key of previousSecretKeys) deletes.push(key);
  return { config: { ...value, transport: { ...value.transport, headers } }, writes, deletes, headerWrites, headerDeletes };
}

function secretKeysOf(values: Record<string, string | { secret: true }>): Set<string> {
  return new Set(
    Object.entries(values)
      .filter(([, v]) => typeof v !== 'string')
      .map(([k]) => k),
  );
}

/** Applies the secret writes and deletes of a split definition to the credential store. */
export async function persistSecrets(store: CredentialStore, serverId: string, split: SplitConfig): Promise<void> {
  for (const [key, secret] of split.writes) await store.set(envSecretAccount(serverId, key), secret);
  for (const key of split.deletes) await store.delete(envSecretAccount(serverId, key));
  for (const [name, secret] of split.headerWrites) await store.set(headerSecretAccount(serverId, name), secret);
  for (const name of split.headerDeletes) await store.delete(headerSecretAccount(serverId, name));
}

/** Deletes every secret env or header value a stored definition references. */
export async function deleteSecrets(store: CredentialStore, config: ServerConfig): Promise<void> {
  if (config.transport.type !== 'stdio') {
    for (const name of secretKeysOf(config.transport.headers)) await store.delete(headerSecretAccount(config.id, name));
    return;
  }
  for (const [key, v] of Object.entries(config.transport.env)) {
    if (typeof v !== 'string') await store.delete(envSecretAccount(config.id, key));
  }
}

/**
 * The definition with its secret header values read from the credential store, for opening a connection. A secret
 * with no stored value stays a reference (the transport refuses to connect with a clear message).
 */
export async function resolveHeaders(store: CredentialStore, config: ServerConfig): Promise<ServerConfig> {
  const t = config.transport;
  if (t.type === 'stdio' || Object.values(t.headers).every((v) => typeof v === 'string')) return config;
  const headers: Record<string, string | { secret: true }> = {};
  for (const [name, v] of Object.entries(t.headers)) {
    headers[name] = typeof v === 'string' ? v : ((await store.get(headerSecretAccount(config.id, name))) ?? v);
  }
  return { ...config, transport: { ...t, headers } };
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
    const headers: Record<string, string | { secret: true; isSet: boolean }> = {};
    for (const [name, v] of Object.entries(config.transport.headers)) {
      headers[name] = typeof v === 'string' ? v : { secret: true, isSet: (await store.get(headerSecretAccount(config.id, name))) !== null };
    }
    return { ...config, transport: { ...config.transport, headers } };
  }
  const env: Record<string, string | { secret: true; isSet: boolean }> = {};
  for (const [key, v] of Object.entries(config.transport.env)) {
    env[key] = typeof v === 'string' ? v : { secret: true, isSet: (await store.get(envSecretAccount(config.id, key))) !== null };
  }
  return { ...config, transport: { ...config.transport, env } };
}
