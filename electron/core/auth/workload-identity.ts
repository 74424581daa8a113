// Workload identity federation (SEP-1933): the workload's own identity token, a JWT its platform issued with the
// authorization server as audience, is the assertion of an RFC 7523 JWT bearer grant. The client is public (no
// secret); its id goes in the token request. The SDK's CrossAppAccessProvider already makes that request, so it is
// used with an assertion that is the stored token itself, unchanged. Errors (invalid_grant for an expired or
// misaddressed token, invalid_scope, unauthorized_client) are surfaced as they are: no other grant is tried.
import { CrossAppAccessProvider, type FetchLike, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { AppError } from '../../../shared/errors.js';
import type { StoredClientSettings } from './credentials.js';
import type { ProviderCommon } from './machine-token.js';

/** The provider for a workload identity token; the token must be set (a current one, it is short-lived). */
export function workloadIdentityProvider(
  id: string,
  settings: StoredClientSettings,
  common: ProviderCommon,
  fetchFn: FetchLike,
): OAuthClientProvider {
  const token = settings.workloadToken;
  if (token === undefined || token === '')
    throw new AppError('auth_required', 'Workload identity needs the identity token your platform issued; set a current one', {
      serverId: id,
    });
  const provider = new CrossAppAccessProvider({
    ...common,
    fetchFn,
    assertion: () => Promise.resolve(token),
    // The SDK's options type asks for a client secret; a public client has none (its metadata below says so).
  } as unknown as ConstructorParameters<typeof CrossAppAccessProvider>[0]);
  // A public client: no secret, so the token request authenticates with "none" (the client id in the body).
  Object.defineProperty(provider, 'clientMetadata', {
    get: () => ({
      client_name: common.clientName,
      redirect_uris: [],
      grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'],
      token_endpoint_auth_method: 'none',
    }),
  });
  return provider;
}
