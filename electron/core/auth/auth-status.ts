// Builds the authorization status the renderer sees (never a token or secret).
import type { AuthStatus } from '../../../shared/domains/auth.js';
import type { AuthContext } from './auth-context.js';
import { plainText } from './callback.js';
import { clientView } from './credentials.js';
import { storedDpopThumbprint } from './dpop.js';

/** The server's authorization state; never a token or secret. */
export async function buildStatus(ctx: AuthContext, id: string): Promise<AuthStatus> {
  const config = ctx.host.config(id);
  const t = config.transport;
  const bearerSet = t.type !== 'stdio' && (await ctx.creds.bearer(id)) !== null;
  const client = await ctx.creds.client(id);
  const grant = t.type !== 'stdio' ? await ctx.creds.grant(id, t.url) : undefined;
  const flow = ctx.flows.get(id);
  const device = ctx.deviceFlows.get(id);
  const failure = ctx.failures.get(id);
  const session = ctx.host.sessions.status(id);
  const challenge = ctx.challenges.get(id);
  const needsAuth = session.state === 'needs-auth';
  const kind: AuthStatus['kind'] = bearerSet
    ? 'bearer'
    : client?.grant === 'client_credentials' || client?.grant === 'cross_app_access' || client?.grant === 'workload_identity'
      ? client.grant
      : grant !== undefined || client !== undefined || flow !== undefined || device !== undefined || needsAuth
        ? 'oauth'
        : 'none';
  const state: AuthStatus['state'] =
    flow !== undefined || device !== undefined
      ? 'in-progress'
      : needsAuth
        ? 'needs-auth'
        : grant !== undefined || bearerSet
          ? 'signed-in'
          : 'signed-out';
  const status: AuthStatus = { id, kind, state, bearerSet };
  if (client !== undefined) status.client = clientView(client);
  if (grant !== undefined) {
    status.issuer = grant.issuer;
    if (grant.expiresAt !== undefined) status.expiresAt = grant.expiresAt;
    if (typeof grant.tokens.scope === 'string' && grant.tokens.scope !== '') status.scopes = grant.tokens.scope.split(' ');
    if (grant.tokens.token_type.toLowerCase() === 'dpop') {
      const thumbprint = await storedDpopThumbprint(ctx.host.credentials, id);
      if (thumbprint !== undefined) status.dpop = { thumbprint };
    }
  }
  if (challenge?.scope !== undefined) status.requiredScope = plainText(challenge.scope, 500);
  const reason = ctx.needsAuthReason.get(id);
  if (needsAuth) status.reason = reason ?? session.error?.message ?? 'The server requires authorization';
  if (flow !== undefined) {
    status.flow = {
      step: flow.step,
      redirectUri: flow.redirectUri,
      attempt: flow.attempt,
      ...(flow.authorizationUrl !== undefined ? { authorizationUrl: flow.authorizationUrl } : {}),
      ...(flow.authorizationUrlWarnings !== undefined && flow.authorizationUrlWarnings.length > 0
        ? { authorizationUrlWarnings: [...flow.authorizationUrlWarnings] }
        : {}),
    };
  } else if (device !== undefined) {
    status.flow = { step: 'device', attempt: 1 };
    status.device = { ...device.view };
  } else if (failure !== undefined) {
    status.flow = { step: failure.step, failed: { step: failure.step, message: failure.message }, attempt: failure.attempt };
  }
  return status;
}
