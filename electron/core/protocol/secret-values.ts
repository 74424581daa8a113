// The secret values Switchboard holds for one server, read from the credential store, so the protocol view can
// redact them wherever a server echoes them: secret env values and headers, the static bearer token, client settings secrets
// and the current OAuth grant's tokens and client secret.
import type { ServerConfig } from '../../../shared/config.js';
import { accounts } from '../auth/credentials.js';
import { isObject } from '../json.js';
import type { CredentialStore } from '../ports.js';
import { envSecretAccount, headerSecretAccount } from '../servers/secrets.js';

const SECRET_FIELD = /secret|token|key|assertion|password/i;
/** Fields under those names that hold no secret (token type, expiry, endpoints, algorithms, ids). */
const NOT_SECRET_FIELD = /type|expir|scope|endpoint|url|uri|method|alg|id$|ids$/i;

/** Collects string leaves under secret-looking field names (or every leaf when `all`). */
function collect(value: unknown, out: Set<string>, all: boolean, depth = 0): void {
  if (depth > 8) return;
  if (typeof value === 'string') {
    if (all) out.add(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collect(v, out, all, depth + 1);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, v] of Object.entries(value)) collect(v, out, all || (SECRET_FIELD.test(key) && !NOT_SECRET_FIELD.test(key)), depth + 1);
}

async function read(store: CredentialStore, account: string): Promise<string | null> {
  try {
    return await store.get(account);
  } catch {
    return null;
  }
}

function parse(raw: string | null): unknown {
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Every secret value stored for the server (env secrets, bearer, client settings, OAuth grants). */
export async function serverSecretValues(store: CredentialStore, config: ServerConfig): Promise<string[]> {
  const found = new Set<string>();
  const t = config.transport;
  if (t.type === 'stdio') {
    for (const [key, value] of Object.entries(t.env)) {
      if (typeof value === 'string') continue;
      const secret = await read(store, envSecretAccount(config.id, key));
      if (secret) found.add(secret);
    }
  } else {
    for (const [name, value] of Object.entries(t.headers)) {
      if (typeof value === 'string') continue;
      const secret = await read(store, headerSecretAccount(config.id, name));
      if (secret) found.add(secret);
    }
  }
  const bearer = await read(store, accounts.bearer(config.id));
  if (bearer) found.add(bearer.trim());
  collect(parse(await read(store, accounts.client(config.id))), found, false);
  const index = parse(await read(store, accounts.index(config.id)));
  if (isObject(index) && Array.isArray(index.entries)) {
    for (const entry of index.entries) {
      if (!isObject(entry) || typeof entry.account !== 'string') continue;
      const grant = parse(await read(store, entry.account));
      if (isObject(grant)) {
        collect(grant.tokens, found, false);
        collect(grant.client, found, false);
      }
    }
  }
  return [...found].filter((s) => s.length > 0);
}
