// Client-credentials tokens: the SDK provider for the configured auth method, minted again shortly before expiry.
import { createPrivateKey } from 'node:crypto';
import {
  auth,
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import type { AuthContext } from './auth-context.js';
import { describeAuthError } from './auth-errors.js';
import { expiryOf, type GrantRecord, type StoredClientSettings } from './credentials.js';
import { CLIENT_NAME } from './flow-provider.js';
import { runGuarded } from './refresh-guard.js';

/** A client-credentials token this close to expiry is replaced before use ("shortly before expiry"). */
const CLIENT_CREDENTIALS_MARGIN_MS = 60 * 1000;

/** Signing algorithm for a PEM private key (RFC 7518 names). */
export function algorithmFor(pem: string): string {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') return 'RS256';
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
    return 'ES256';
  }
  throw new AppError('config_invalid', `Unsupported private key type ${String(key.asymmetricKeyType)} for private_key_jwt`);
}

/** client_secret_post: the SDK's client credentials provider, told to put the secret in the body. */
class PostClientCredentialsProvider extends ClientCredentialsProvider {
  override clientInformation(): StoredOAuthClientInformation {
    return { ...super.clientInformation(), token_endpoint_auth_method: 'client_secret_post' };
  }
}

/** Client credentials: a token from the SDK's provider, minted again shortly before expiry (no refresh token). */
export function mintClientCredentials(
  ctx: AuthContext,
  id: string,
  config: ServerConfig,
  settings: StoredClientSettings,
  force: boolean,
  stale?: string,
): Promise<GrantRecord | undefined> {
  return runGuarded(ctx, id, async (): Promise<GrantRecord | undefined> => {
    const url = (config.transport as { url: string }).url;
    const current = await ctx.creds.grant(id, url);
    const usable =
      current !== undefined &&
      current.grant === 'client_credentials' &&
      current.client.client_id === settings.clientId &&
      (current.expiresAt === undefined ||
        current.expiresAt - Math.min(CLIENT_CREDENTIALS_MARGIN_MS, (current.expiresAt - current.obtainedAt) / 2) > ctx.now());
    if (usable && (!force || (stale !== undefined && current.tokens.access_token !== stale))) return current;
    const clientId = settings.clientId;
    if (clientId === undefined) throw new AppError('config_invalid', 'Client credentials need a client id', { serverId: id });
    const scope = settings.scopes?.join(' ') || ctx.challenges.get(id)?.scope;
    // The secret goes only to the pinned issuer: the configured one, else the one that issued the last token.
    const expectedIssuer = settings.issuer ?? (current?.grant === 'client_credentials' ? current.issuer : undefined);
    const common = {
      clientId,
      clientName: CLIENT_NAME,
      ...(scope ? { scope } : {}),
      ...(expectedIssuer !== undefined ? { expectedIssuer } : {}),
    };
    let provider: OAuthClientProvider;
    if (settings.authMethod === 'private_key_jwt') {
      const pem = settings.privateKeyPem;
      if (pem === undefined) throw new AppError('config_invalid', 'private_key_jwt needs a private key', { serverId: id });
      provider = new PrivateKeyJwtProvider({ ...common, privateKey: pem, algorithm: algorithmFor(pem) } as ConstructorParameters<
        typeof PrivateKeyJwtProvider
      >[0]);
    } else {
      const secret = settings.clientSecret;
      if (secret === undefined) throw new AppError('config_invalid', 'Client credentials need a client secret', { serverId: id });
      const Provider = settings.authMethod === 'client_secret_post' ? PostClientCredentialsProvider : ClientCredentialsProvider;
      provider = new Provider({ ...common, clientSecret: secret } as ConstructorParameters<typeof ClientCredentialsProvider>[0]);
    }
    const resourceMetadataUrl = ctx.challenges.get(id)?.resourceMetadataUrl;
    try {
      await auth(provider, {
        serverUrl: url,
        fetchFn: ctx.fetchFor(config),
        ...(resourceMetadataUrl !== undefined ? { resourceMetadataUrl } : {}),
      });
    } catch (err) {
      throw describeAuthError(id, err);
    }
    const tokens = await provider.tokens();
    if (tokens === undefined) throw new AppError('auth_required', 'The authorization server issued no token', { serverId: id });
    const now = ctx.now();
    const expiresAt = expiryOf(tokens, now);
    const issuer = tokens.issuer ?? expectedIssuer ?? new URL(url).origin;
    const grant: GrantRecord = {
      v: 1,
      serverUrl: url,
      issuer,
      authorizationServerUrl: issuer,
      client: { client_id: clientId },
      tokens: {
        access_token: tokens.access_token,
        token_type: tokens.token_type,
        ...(tokens.scope !== undefined ? { scope: tokens.scope } : {}),
        issuer,
      },
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      obtainedAt: now,
      grant: 'client_credentials',
    };
    await ctx.creds.saveGrant(id, grant);
    ctx.needsAuthReason.delete(id);
    ctx.log(id, 'info', 'Client credentials token obtained');
    ctx.announce(id);
    return grant;
  });
}
