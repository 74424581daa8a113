// Where authorization secrets live in the CredentialStore: static bearer tokens, client settings (secret, private
// key) and OAuth grants. A grant is stored per server + server URL + issuer, so a changed endpoint or
// authorization server never reuses an unrelated grant. Nothing here is ever written to the settings file.
import { createHash } from 'node:crypto';
import type { AuthorizationServerMetadata, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { ClientGrant, ClientSettingsInput, ClientSettingsView } from '../../../shared/domains/auth.js';
import type { CredentialStore } from '../ports.js';
import { isObject } from '../json.js';

/** One OAuth grant: tokens plus everything needed to refresh them without discovery. */
export interface GrantRecord {
  /** Record format. */
  v: 1;
  /** The MCP server URL the grant was obtained for. */
  serverUrl: string;
  /** The authorization server's issuer. */
  issuer: string;
  /** Authorization server URL used for token requests. */
  authorizationServerUrl: string;
  /** Its metadata, when discovered. */
  metadata?: AuthorizationServerMetadata;
  /** RFC 8707 resource indicator used in the grant. */
  resource?: string;
  /** The client the grant was issued to. */
  client: StoredOAuthClientInformation;
  /** The tokens. */
  tokens: StoredOAuthTokens;
  /** Access token expiry (ms since epoch), when the server said. */
  expiresAt?: number;
  /** When the tokens were obtained (ms since epoch). */
  obtainedAt: number;
  /** How the grant was obtained. */
  grant: ClientGrant;
}

/** The per-server list of stored grants and which one is current. */
interface GrantIndex {
  v: 1;
  entries: { serverUrl: string; issuer: string; account: string }[];
  current?: string;
}

/** Client settings as stored (secrets included; only in the credential store). */
export type StoredClientSettings = ClientSettingsInput;

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}

/** Account names, one function each, so no other module spells them. */
export const accounts = {
  bearer: (serverId: string) => `auth:bearer:${serverId}`,
  client: (serverId: string) => `auth:client:${serverId}`,
  index: (serverId: string) => `auth:oauth-index:${serverId}`,
  grant: (serverId: string, serverUrl: string, issuer: string) => `auth:oauth:${serverId}:${hash(`${serverUrl}\n${issuer}`)}`,
} as const;

function parseJson<T>(raw: string | null, check: (v: unknown) => v is T): T | undefined {
  if (raw === null) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return check(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isGrant(v: unknown): v is GrantRecord {
  return (
    isObject(v) &&
    v['v'] === 1 &&
    typeof v['serverUrl'] === 'string' &&
    typeof v['issuer'] === 'string' &&
    isObject(v['tokens']) &&
    typeof (v['tokens'] as Record<string, unknown>)['access_token'] === 'string' &&
    isObject(v['client'])
  );
}

function isIndex(v: unknown): v is GrantIndex {
  return isObject(v) && v['v'] === 1 && Array.isArray(v['entries']);
}

const GRANTS: readonly ClientGrant[] = ['authorization_code', 'client_credentials', 'cross_app_access', 'device_code', 'workload_identity'];

function isClientSettings(v: unknown): v is StoredClientSettings {
  return isObject(v) && GRANTS.includes(v['grant'] as ClientGrant);
}

/** Grants whose tokens the app obtains without a browser and mints again shortly before they expire (no refresh token). */
export function isMachineGrant(grant: ClientGrant | undefined): grant is 'client_credentials' | 'cross_app_access' | 'workload_identity' {
  return grant === 'client_credentials' || grant === 'cross_app_access' || grant === 'workload_identity';
}

/** Secret fields of the client settings: never returned, and an empty one keeps the stored value. */
const SECRET_FIELDS = ['clientSecret', 'privateKeyPem', 'idpClientSecret', 'idToken', 'workloadToken'] as const;

/** Typed access to the authorization secrets of every server. */
export class AuthCredentials {
  readonly #store: CredentialStore;

  constructor(store: CredentialStore) {
    this.#store = store;
  }

  /** The static bearer token, or null. */
  bearer(serverId: string): Promise<string | null> {
    return this.#store.get(accounts.bearer(serverId));
  }

  async setBearer(serverId: string, token: string | null): Promise<void> {
    if (token === null) await this.#store.delete(accounts.bearer(serverId));
    else await this.#store.set(accounts.bearer(serverId), token);
  }

  /** Client settings with secrets, or undefined. */
  async client(serverId: string): Promise<StoredClientSettings | undefined> {
    return parseJson(await this.#store.get(accounts.client(serverId)), isClientSettings);
  }

  /**
   * Stores client settings. A secret or private key left empty keeps the stored one when the client id and grant
   * are unchanged (the renderer never receives them, so it cannot send them back).
   */
  async setClient(serverId: string, input: ClientSettingsInput | null): Promise<void> {
    if (input === null) {
      await this.#store.delete(accounts.client(serverId));
      return;
    }
    const previous = await this.client(serverId);
    const same = previous !== undefined && previous.clientId === input.clientId && previous.grant === input.grant;
    const next: StoredClientSettings = { ...input };
    for (const field of SECRET_FIELDS) {
      if (next[field] !== undefined && next[field] !== '') continue;
      delete next[field];
      const kept = same ? previous[field] : undefined;
      if (kept !== undefined) next[field] = kept;
    }
    if (next.clientId === '') delete next.clientId;
    await this.#store.set(accounts.client(serverId), JSON.stringify(next));
  }

  /** The grant for this server URL and issuer (or the current one for the URL when issuer is omitted). */
  async grant(serverId: string, serverUrl: string, issuer?: string): Promise<GrantRecord | undefined> {
    const index = await this.#index(serverId);
    let account: string | undefined;
    if (issuer !== undefined) account = accounts.grant(serverId, serverUrl, issuer);
    else {
      const current = index.entries.find((e) => e.account === index.current);
      if (current !== undefined && current.serverUrl === serverUrl) account = current.account;
    }
    if (account === undefined) return undefined;
    const grant = parseJson(await this.#store.get(account), isGrant);
    // A record that does not belong to this URL + issuer (should not happen) is never handed out.
    if (grant === undefined || grant.serverUrl !== serverUrl || (issuer !== undefined && grant.issuer !== issuer)) return undefined;
    return grant;
  }

  /** Persists a grant and makes it current; the new record is written before the index moves to it. */
  async saveGrant(serverId: string, grant: GrantRecord): Promise<void> {
    const account = accounts.grant(serverId, grant.serverUrl, grant.issuer);
    await this.#store.set(account, JSON.stringify(grant));
    const index = await this.#index(serverId);
    const entries = index.entries.filter((e) => e.account !== account);
    entries.push({ serverUrl: grant.serverUrl, issuer: grant.issuer, account });
    await this.#store.set(accounts.index(serverId), JSON.stringify({ v: 1, entries, current: account } satisfies GrantIndex));
  }

  /** Deletes the tokens of one grant but keeps nothing else of it (the client registration goes with it). */
  async deleteGrant(serverId: string, serverUrl: string, issuer: string): Promise<void> {
    const account = accounts.grant(serverId, serverUrl, issuer);
    const index = await this.#index(serverId);
    const entries = index.entries.filter((e) => e.account !== account);
    const next: GrantIndex = {
      v: 1,
      entries,
      ...(index.current !== undefined && index.current !== account ? { current: index.current } : {}),
    };
    await this.#store.set(accounts.index(serverId), JSON.stringify(next));
    await this.#store.delete(account);
  }

  /** Deletes every grant of a server (sign out). Client settings and bearer token are kept. */
  async deleteGrants(serverId: string): Promise<void> {
    const index = await this.#index(serverId);
    for (const entry of index.entries) await this.#store.delete(entry.account);
    await this.#store.delete(accounts.index(serverId));
  }

  /** Deletes everything authorization-related for a server (server removed). */
  async deleteAll(serverId: string): Promise<void> {
    await this.deleteGrants(serverId);
    await this.#store.delete(accounts.bearer(serverId));
    await this.#store.delete(accounts.client(serverId));
  }

  async #index(serverId: string): Promise<GrantIndex> {
    return parseJson(await this.#store.get(accounts.index(serverId)), isIndex) ?? { v: 1, entries: [] };
  }
}

/** Client settings without secrets, for the renderer. */
export function clientView(settings: StoredClientSettings): ClientSettingsView {
  return {
    grant: settings.grant,
    ...(settings.clientId !== undefined ? { clientId: settings.clientId } : {}),
    hasSecret: settings.clientSecret !== undefined && settings.clientSecret !== '',
    hasPrivateKey: settings.privateKeyPem !== undefined && settings.privateKeyPem !== '',
    ...(settings.authMethod !== undefined ? { authMethod: settings.authMethod } : {}),
    ...(settings.metadataUrl !== undefined ? { metadataUrl: settings.metadataUrl } : {}),
    ...(settings.scopes !== undefined ? { scopes: [...settings.scopes] } : {}),
    ...(settings.issuer !== undefined ? { issuer: settings.issuer } : {}),
    ...(settings.grant === 'cross_app_access'
      ? {
          ...(settings.idpIssuer !== undefined ? { idpIssuer: settings.idpIssuer } : {}),
          ...(settings.idpTokenEndpoint !== undefined ? { idpTokenEndpoint: settings.idpTokenEndpoint } : {}),
          ...(settings.idpClientId !== undefined ? { idpClientId: settings.idpClientId } : {}),
          hasIdpSecret: settings.idpClientSecret !== undefined && settings.idpClientSecret !== '',
          hasIdToken: settings.idToken !== undefined && settings.idToken !== '',
        }
      : {}),
    ...(settings.grant === 'workload_identity'
      ? { hasWorkloadToken: settings.workloadToken !== undefined && settings.workloadToken !== '' }
      : {}),
  };
}

/** Expiry in ms since epoch from a token response, when it has expires_in. */
export function expiryOf(tokens: StoredOAuthTokens, now: number): number | undefined {
  return typeof tokens.expires_in === 'number' && Number.isFinite(tokens.expires_in) ? now + tokens.expires_in * 1000 : undefined;
}
