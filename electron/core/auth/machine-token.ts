// Tokens the app obtains without a browser: client credentials (the SDK provider for the configured auth method) and
// Cross-App Access (SEP-990: the user's ID token is exchanged at the enterprise IdP for an ID-JAG, which the MCP
// server's authorization server accepts as a JWT bearer grant). Neither issues a refresh token, so the token is
// minted again shortly before it expires.
import { createPrivateKey } from 'node:crypto';
import {
  auth,
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
  type FetchLike,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import type { AuthContext } from './auth-context.js';
import { describeAuthError } from './auth-errors.js';
import { crossAppAccessProvider } from './cross-app-access.js';
import { workloadIdentityProvider } from './workload-identity.js';
import { withDpopTokenRequests } from './dpop.js';
import { expiryOf, type GrantRecord, type StoredClientSettings } from './credentials.js';
import { originOf } from './endpoint-policy.js';
import { CLIENT_NAME } from './flow-provider.js';
import { runGuarded } from './refresh-guard.js';

type MachineGrant = 'client_credentials' | 'cross_app_access' | 'workload_identity';

/** What each machine grant's token is called in the log. */
const MACHINE_GRANT_TOKENS: Record<MachineGrant, string> = {
  client_credentials: 'Client credentials token',
  cross_app_access: 'Cross-App Access token',
  workload_identity: 'Workload identity token',
};

/** The subject of "... refused" for a machine grant whose token request failed. */
export function machineGrantName(grant: MachineGrant): string {
  if (grant === 'cross_app_access') return 'The Cross-App Access token was';
  if (grant === 'workload_identity') return 'The workload identity token was';
  return 'Client credentials were';
}

/** A minted token this close to expiry is replaced before use ("shortly before expiry"). */
const MACHINE_TOKEN_MARGIN_MS = 60 * 1000;

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

/** The SDK provider for the configured machine grant and client authentication. */
function providerFor(id: string, settings: StoredClientSettings, common: ProviderCommon, fetchFn: FetchLike): OAuthClientProvider {
  if (settings.grant === 'cross_app_access') return crossAppAccessProvider(id, settings, common, fetchFn);
  if (settings.grant === 'workload_identity') return workloadIdentityProvider(id, settings, common, fetchFn);
  if (settings.authMethod === 'private_key_jwt') {
    const pem = settings.privateKeyPem;
    if (pem === undefined) throw new AppError('config_invalid', 'private_key_jwt needs a private key', { serverId: id });
    return new PrivateKeyJwtProvider({ ...common, privateKey: pem, algorithm: algorithmFor(pem) } as ConstructorParameters<
      typeof PrivateKeyJwtProvider
    >[0]);
  }
  const secret = settings.clientSecret;
  if (secret === undefined) throw new AppError('config_invalid', 'Client credentials need a client secret', { serverId: id });
  const Provider = settings.authMethod === 'client_secret_post' ? PostClientCredentialsProvider : ClientCredentialsProvider;
  return new Provider({ ...common, clientSecret: secret } as ConstructorParameters<typeof ClientCredentialsProvider>[0]);
}

/** What every machine-grant provider is built with. */
export interface ProviderCommon {
  clientId: string;
  clientName: string;
  scope?: string;
  expectedIssuer?: string;
}

/** A client-credentials or Cross-App Access token, minted again shortly before expiry (neither has a refresh token). */
export function mintMachineToken(
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
      current.grant === settings.grant &&
      current.client.client_id === settings.clientId &&
      (current.expiresAt === undefined ||
        current.expiresAt - Math.min(MACHINE_TOKEN_MARGIN_MS, (current.expiresAt - current.obtainedAt) / 2) > ctx.now());
    if (usable && (!force || (stale !== undefined && current.tokens.access_token !== stale))) return current;
    const clientId = settings.clientId;
    if (clientId === undefined) throw new AppError('config_invalid', 'This grant needs a client id', { serverId: id });
    const scope = settings.scopes?.join(' ') || ctx.challenges.get(id)?.scope;
    // The secret goes only to the pinned issuer: the configured one, else the one that issued the last token.
    const expectedIssuer = settings.issuer ?? (current?.grant === settings.grant ? current.issuer : undefined);
    const common: ProviderCommon = {
      clientId,
      clientName: CLIENT_NAME,
      ...(scope ? { scope } : {}),
      ...(expectedIssuer !== undefined ? { expectedIssuer } : {}),
    };
    // Addresses the person typed (a pinned issuer, the identity provider) may be on the private network.
    const trusted = [settings.issuer, settings.idpIssuer, settings.idpTokenEndpoint].flatMap(originOf);
    const fetchFn = ctx.fetchFor(config, trusted);
    // DPoP only when the authorization server asks for it; the grant's token_type then says DPoP (see token-source).
    const provider = withDpopTokenRequests(providerFor(id, settings, common, fetchFn), () => ctx.dpop.session(id));
    const resourceMetadataUrl = ctx.challenges.get(id)?.resourceMetadataUrl;
    try {
      await auth(provider, {
        serverUrl: url,
        fetchFn,
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
      grant: settings.grant,
    };
    await ctx.creds.saveGrant(id, grant);
    ctx.needsAuthReason.delete(id);
    ctx.log(id, 'info', `${MACHINE_GRANT_TOKENS[settings.grant as MachineGrant]} obtained`);
    ctx.announce(id);
    return grant;
  });
}
