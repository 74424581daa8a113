// The guarded fetch for OAuth requests, which also remembers the authorization endpoint exactly as the server sent it.
import type { FetchLike } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import { createGuardedFetch } from '../transports/http-guards.js';
import { oauthEndpointProblem } from './endpoint-policy.js';

/**
 * The guarded fetch for OAuth requests: URL checks, no redirects, bounded bodies, and the endpoint policy (no request
 * to this machine or a private network unless the MCP server is itself local; `trustedOrigins` are the addresses the
 * person configured); reports each raw authorization_endpoint.
 */
export function createOAuthFetch(
  config: ServerConfig,
  base: FetchLike | undefined,
  log: (level: 'info' | 'warning' | 'error', text: string) => void,
  onRawEndpoint: (endpoint: string) => void,
  trustedOrigins: readonly string[] = [],
): FetchLike {
  const t = config.transport;
  if (t.type === 'stdio') throw new AppError('internal', 'No fetch for stdio servers');
  const guard = createGuardedFetch(
    {
      serverId: config.id,
      serverUrl: t.url,
      allowInsecureHttp: t.allowInsecureHttp,
      headers: {},
      messageBytes: Math.min(config.limits.messageBytes, 1024 * 1024),
      kind: t.type,
      log: (_source, level, text) => log(level === 'debug' ? 'info' : level, text),
      report: () => undefined,
    },
    base,
  );
  return async (input, init) => {
    const href = typeof input === 'string' ? input : input.href;
    const problem = oauthEndpointProblem(href, t.url, trustedOrigins);
    if (problem !== null) {
      log('error', problem);
      throw new AppError('url_refused', problem, { serverId: config.id });
    }
    const response = await guard.fetch(input, init);
    if (response.ok && new URL(href).pathname.includes('/.well-known/')) {
      // Keep the authorization endpoint exactly as sent, so a CR/LF the URL parser would drop is still refused.
      const body: unknown = await response
        .clone()
        .json()
        .catch(() => undefined);
      const endpoint =
        typeof body === 'object' && body !== null ? (body as { authorization_endpoint?: unknown }).authorization_endpoint : undefined;
      if (typeof endpoint === 'string') onRawEndpoint(endpoint);
    }
    return response;
  };
}
