// Cross-App Access (SEP-990, enterprise-managed authorization): the SDK's CrossAppAccessProvider, whose assertion is
// an ID-JAG the enterprise IdP issues for the user's ID token (RFC 8693 token exchange), bound to this server's
// authorization server and resource. The IdP's token endpoint is discovered from its issuer unless configured.
import {
  CrossAppAccessProvider,
  discoverAndRequestJwtAuthGrant,
  requestJwtAuthorizationGrant,
  type FetchLike,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { AppError } from '../../../shared/errors.js';
import { describeAuthError } from './auth-errors.js';
import type { StoredClientSettings } from './credentials.js';
import type { ProviderCommon } from './machine-token.js';

/** Cross-App Access: the assertion is an ID-JAG from the IdP's token exchange (RFC 8693), for this server only. */
export function crossAppAccessProvider(
  id: string,
  settings: StoredClientSettings,
  common: ProviderCommon,
  fetchFn: FetchLike,
): OAuthClientProvider {
  const { idpIssuer, idpClientId, idToken, clientSecret } = settings;
  if (idpIssuer === undefined || idpClientId === undefined || idpClientId === '')
    throw new AppError('config_invalid', 'Cross-App Access needs the identity provider issuer and its client id', { serverId: id });
  if (idToken === undefined || idToken === '')
    throw new AppError('auth_required', 'Cross-App Access needs an ID token from your identity provider; paste a current one', {
      serverId: id,
    });
  if (clientSecret === undefined)
    throw new AppError('config_invalid', 'Cross-App Access needs the client secret registered with the authorization server', {
      serverId: id,
    });
  return new CrossAppAccessProvider({
    ...common,
    clientSecret,
    fetchFn,
    assertion: async (ctx) => {
      try {
        const request = {
          audience: ctx.authorizationServerUrl,
          resource: ctx.resourceUrl,
          idToken,
          clientId: idpClientId,
          ...(settings.idpClientSecret ? { clientSecret: settings.idpClientSecret } : {}),
          ...(ctx.scope ? { scope: ctx.scope } : {}),
          fetchFn,
        };
        const result =
          settings.idpTokenEndpoint !== undefined
            ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: settings.idpTokenEndpoint })
            : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idpIssuer });
        return result.jwtAuthGrant;
      } catch (err) {
        const reason = describeAuthError(id, err).message;
        throw new AppError('auth_required', `The identity provider ${idpIssuer} refused the token exchange: ${reason}`, {
          serverId: id,
        });
      }
    },
  } as ConstructorParameters<typeof CrossAppAccessProvider>[0]);
}
