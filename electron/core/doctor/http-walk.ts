// The doctor walk for a Streamable HTTP or SSE server: URL → DNS → TCP → TLS → HTTP status → protected-resource
// metadata → authorization-server metadata → protocol version negotiated → authorization. Each step says what it
// found; the first failing one says what to do next.
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  type FetchLike,
  type Implementation,
} from '@modelcontextprotocol/client';
import { blockedPortMessage, fetchBlockedPort } from '../../../shared/blocked-ports.js';
import { checkServerUrl, type ServerConfig } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import { createOAuthFetch } from '../auth/oauth-fetch.js';
import { establish, type Established } from '../sessions/lifecycle.js';
import { createTransport } from '../transports/create-transport.js';
import { checkHeaders, displayUrl } from '../transports/http-guards.js';
import type { TransportAuthContext } from '../transports/transport-factory.js';
import { bareHost, isIpLiteral, probeTls, resolveHost, tcpConnect, type LookupFn } from './net-probes.js';
import { fact, negotiatedOutcome, WalkRecorder, type StepOutcome } from './walk-steps.js';
import type { HttpStepId } from '../../../shared/domains/doctor.js';
import type { DoctorWalk } from '../../../shared/domains/doctor.js';

/** How long the HTTP status request may take. */
const HTTP_TIMEOUT_MS = 15_000;

/** What the HTTP walk needs. */
export interface HttpWalkInput {
  /** The definition (http or sse). */
  config: ServerConfig;
  /** The saved server's credentials, when it has any. */
  auth?: TransportAuthContext;
  /** Resolver (tests pass their own). */
  lookup?: LookupFn;
  /** Client identity. */
  clientInfo: Implementation;
}

/** What the HTTP status step learned for the later steps. */
interface HttpFacts {
  status?: number;
  sentToken?: boolean;
  challenge?: { resourceMetadataUrl?: URL; scope?: string; error?: string };
  authServer?: string;
}

/** Plain words for a socket error code. */
function socketWords(code: string | undefined, target: string): { summary: string; advice: string } {
  switch (code) {
    case 'ECONNREFUSED':
      return {
        summary: `Nothing is listening at ${target} (connection refused)`,
        advice: 'Check that the server is running and that the port in the URL is right.',
      };
    case 'ETIMEDOUT':
      return {
        summary: `No answer from ${target}`,
        advice: 'A firewall or VPN may be dropping the connection; check that the host is reachable from this machine.',
      };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { summary: `${target} cannot be reached from this machine (${code})`, advice: 'Check your network connection, VPN or proxy.' };
    default:
      return { summary: `Could not connect to ${target} (${code ?? 'unknown error'})`, advice: 'Check the host and port in the URL.' };
  }
}

/** Plain words for a refused certificate. */
function tlsAdvice(code: string | undefined, hostname: string, altNames: string | undefined, validTo: string | undefined): string {
  switch (code) {
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return 'The certificate is self-signed, so it is not trusted. Use a certificate from a trusted authority, or add the issuing certificate to this machine’s trusted certificates (NODE_EXTRA_CA_CERTS).';
    case 'CERT_HAS_EXPIRED':
      return `The certificate expired${validTo !== undefined ? ` on ${validTo}` : ''}; the server’s operator must renew it.`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `The certificate is for ${altNames ?? 'other names'}, not ${hostname}: use the host name the certificate names.`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'The certificate’s issuer is not trusted on this machine: the server may be missing its intermediate certificates, or a proxy replaces them.';
    default:
      return 'The secure connection could not be set up; check the certificate the server presents.';
  }
}

/** The header values the walk sends: the caller resolved secret ones; an unresolved reference is left out. */
function plainHeaders(headers: Record<string, string | { secret: true }>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Walks an HTTP or SSE server. */
export async function walkHttp(input: HttpWalkInput): Promise<DoctorWalk> {
  const { config } = input;
  const t = config.transport;
  if (t.type === 'stdio') throw new AppError('internal', 'walkHttp needs an http or sse server');
  const walk = new WalkRecorder<HttpStepId>(t.type);
  let url: URL | undefined;
  let addresses: string[] = [];
  let connected: string | undefined;
  const facts: HttpFacts = {};
  const shown = displayUrl(t.url);

  await walk.step('url', 'URL', async () => {
    const problem = checkServerUrl(t.url, t.allowInsecureHttp);
    if (problem !== null) return { status: 'failed', summary: problem, advice: 'Give the full https:// address of the MCP endpoint.' };
    const headerProblem = checkHeaders(plainHeaders(t.headers), config.id);
    if (headerProblem !== null)
      return {
        status: 'failed',
        summary: headerProblem.message,
        advice: 'Remove the headers Switchboard sets itself; use the sign-in tab for tokens.',
      };
    const blocked = fetchBlockedPort(t.url);
    if (blocked !== undefined)
      return { status: 'failed', summary: blockedPortMessage(blocked), advice: 'Run the server on another port and change the URL.' };
    url = new URL(t.url);
    return {
      summary: `${shown} is a valid ${url.protocol === 'https:' ? 'https' : 'http'} URL`,
      evidence: [
        ['Scheme', url.protocol.slice(0, -1)],
        ['Host', url.hostname],
        ['Port', url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80'],
        ['Path', url.pathname],
        ['Custom headers', Object.keys(t.headers).join(', ') || undefined],
      ],
    };
  });

  await walk.step('dns', 'Name resolution', async () => {
    const u = url!;
    if (isIpLiteral(u.hostname)) {
      addresses = [bareHost(u.hostname)];
      return { summary: `${u.hostname} is an IP address; nothing to resolve`, evidence: [['Address', addresses[0]]] };
    }
    try {
      const found = await resolveHost(u.hostname, input.lookup);
      addresses = found.map((a) => a.address);
      return {
        summary: `${u.hostname} resolves to ${addresses.length} address${addresses.length === 1 ? '' : 'es'}`,
        evidence: addresses.map((a) => ['Address', a]),
      };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return {
        status: 'failed',
        summary: `${u.hostname} does not resolve (${code ?? 'no address'})`,
        evidence: [['Resolver answer', code ?? (err as Error).message]],
        advice: 'Check the host name for typos. If it is an internal name, connect to the network or VPN that knows it.',
      };
    }
  });

  await walk.step('tcp', 'TCP connection', async () => {
    const u = url!;
    const port = Number(u.port !== '' ? u.port : u.protocol === 'https:' ? 443 : 80);
    const tried: [string, string][] = [];
    let lastCode: string | undefined;
    for (const address of addresses.slice(0, 4)) {
      const started = Date.now();
      try {
        await tcpConnect(address, port);
        connected = address;
        tried.push([`${address}:${port}`, `connected in ${Date.now() - started} ms`]);
        return { summary: `Connected to ${address} port ${port}`, evidence: tried };
      } catch (err) {
        lastCode = (err as NodeJS.ErrnoException).code;
        tried.push([`${address}:${port}`, lastCode ?? (err as Error).message]);
      }
    }
    const words = socketWords(lastCode, `${u.hostname} port ${port}`);
    return { status: 'failed', summary: words.summary, evidence: tried, advice: words.advice };
  });

  await (url?.protocol === 'https:'
    ? walk.step('tls', 'TLS', async () => {
        const u = url!;
        const port = Number(u.port !== '' ? u.port : 443);
        const result = await probeTls(connected ?? bareHost(u.hostname), port, u.hostname);
        const c = result.certificate;
        const evidence: [string, string | undefined][] = [
          ['TLS version', result.protocol],
          ['Certificate subject', c?.subject],
          ['Issuer', c?.issuer],
          ['Valid from', c?.validFrom],
          ['Valid until', c?.validTo],
          ['Names', c?.altNames],
        ];
        if (result.ok) return { summary: `Certificate accepted (${result.protocol ?? 'TLS'})`, evidence };
        return {
          status: 'failed',
          summary: `The certificate was refused: ${result.message ?? result.code ?? 'unknown reason'}`,
          evidence: [['Reason', result.code], ...evidence],
          advice: tlsAdvice(result.code, u.hostname, c?.altNames, c?.validTo),
        };
      })
    : Promise.resolve(walk.skip('tls', 'TLS', 'Plain http: no TLS (allowed for this machine, or opted in)')));

  await walk.step('http', 'HTTP status', () => httpStatus(input, facts));

  const needsAuth = facts.status === 401 || facts.status === 403;
  let fetchFn: FetchLike | undefined;
  const oauthFetch = (): FetchLike =>
    (fetchFn ??= createOAuthFetch(
      config,
      undefined,
      () => undefined,
      () => undefined,
    ));
  if (walk.blocked) {
    // Never reached: say so ("Not run: … failed"), not that authorization was not needed.
    await walk.step('resource-metadata', 'Protected-resource metadata', () => Promise.resolve({ summary: '' }));
    await walk.step('auth-metadata', 'Authorization-server metadata', () => Promise.resolve({ summary: '' }));
  } else if (!needsAuth) {
    walk.skip('resource-metadata', 'Protected-resource metadata', 'Not needed: the server did not ask for authorization');
    walk.skip('auth-metadata', 'Authorization-server metadata', 'Not needed: the server did not ask for authorization');
  } else {
    await walk.step('resource-metadata', 'Protected-resource metadata', async () => {
      const tried: [string, string][] = [];
      const recording: FetchLike = async (u, init) => {
        const response = await oauthFetch()(u, init);
        tried.push([displayUrl(typeof u === 'string' ? u : u.href), `HTTP ${response.status}`]);
        return response;
      };
      try {
        const prm = await discoverOAuthProtectedResourceMetadata(
          t.url,
          facts.challenge?.resourceMetadataUrl ? { resourceMetadataUrl: facts.challenge.resourceMetadataUrl } : {},
          recording,
        );
        const named = prm.authorization_servers?.[0];
        if (named !== undefined) facts.authServer = named;
        return {
          summary: `The server names ${prm.authorization_servers?.length ?? 0} authorization server(s)`,
          evidence: [
            ...tried,
            ['Resource', prm.resource],
            ['Authorization servers', prm.authorization_servers?.join(', ')],
            ['Scopes', prm.scopes_supported?.join(' ')],
          ],
        };
      } catch (err) {
        return {
          status: 'failed',
          summary: `The server asks for authorization but its protected-resource metadata (RFC 9728) could not be read: ${fact((err as Error).message, 300)}`,
          evidence: tried,
          advice:
            'Sign-in cannot be discovered. Ask the server’s operator to publish /.well-known/oauth-protected-resource, or set a bearer token in the server’s sign-in tab.',
        };
      }
    });
    await walk.step('auth-metadata', 'Authorization-server metadata', async () => {
      const issuer = facts.authServer ?? new URL(t.url).origin;
      const tried: [string, string][] = [];
      const recording: FetchLike = async (u, init) => {
        const response = await oauthFetch()(u, init);
        tried.push([displayUrl(typeof u === 'string' ? u : u.href), `HTTP ${response.status}`]);
        return response;
      };
      const metadata = await discoverAuthorizationServerMetadata(issuer, { fetchFn: recording }).catch((err: unknown) => {
        throw new Error(`The authorization server’s metadata could not be read: ${fact((err as Error).message, 300)}`);
      });
      if (metadata === undefined) {
        return {
          status: 'failed',
          summary: `No authorization-server metadata (RFC 8414) at ${displayUrl(issuer)}`,
          evidence: tried,
          advice: 'The authorization server does not describe itself; ask the server’s operator, or set a bearer token in the sign-in tab.',
        };
      }
      const pkce = (metadata.code_challenge_methods_supported ?? []).includes('S256');
      const device = (metadata as { device_authorization_endpoint?: unknown }).device_authorization_endpoint;
      const outcome: StepOutcome = {
        summary: `${metadata.issuer} describes itself`,
        evidence: [
          ...tried,
          ['Issuer', metadata.issuer],
          ['Authorization endpoint', metadata.authorization_endpoint],
          ['Token endpoint', metadata.token_endpoint],
          ['Registration', metadata.registration_endpoint ?? 'not offered'],
          ['Device sign-in', typeof device === 'string' ? device : 'not offered'],
          ['PKCE S256', pkce ? 'supported' : 'not advertised'],
        ],
      };
      if (!pkce)
        return {
          ...outcome,
          status: 'warning',
          summary: `${metadata.issuer} does not advertise PKCE S256; browser sign-in will be refused`,
          advice: 'Use device sign-in, client credentials or a bearer token instead.',
        };
      return outcome;
    });
  }

  let established: Established | undefined;
  let authRefused = needsAuth;
  if (needsAuth && input.auth === undefined) {
    walk.skip('protocol', 'Protocol version', 'Needs authorization first');
  } else {
    await walk.step('protocol', 'Protocol version', async () => {
      try {
        established = await establish({
          config: {
            ...config,
            timeouts: {
              ...config.timeouts,
              setupSecs: Math.min(config.timeouts.setupSecs, 60),
              connectSecs: Math.min(config.timeouts.connectSecs, 45),
            },
          },
          env: {},
          factory: (ctx) => createTransport(input.auth !== undefined ? { ...ctx, auth: input.auth } : ctx),
          log: () => undefined,
          clientInfo: input.clientInfo,
          signal: new AbortController().signal,
        });
      } catch (err) {
        const error = err instanceof AppError ? err : new AppError('connect_failed', (err as Error).message);
        if (error.code === 'auth_required') {
          authRefused = true;
          return { status: 'skipped', summary: 'Needs authorization first: the server refused the handshake' };
        }
        return {
          status: 'failed',
          summary: error.message,
          evidence: [
            ['Error', error.code],
            ['HTTP status', error.evidence?.httpStatus],
          ],
          advice:
            error.code === 'protocol_mismatch'
              ? 'The server speaks a protocol revision Switchboard does not; update the server, or try the lifecycle "initialize" in the advanced settings.'
              : error.code === 'timeout'
                ? 'The server accepted the connection but did not finish the handshake; check its logs.'
                : 'Check the server’s logs for why the handshake failed.',
        };
      }
      return negotiatedOutcome(established);
    });
  }

  try {
    await walk.step('authorization', 'Authorization', async () => {
      if (established === undefined) {
        if (authRefused) {
          const scope = facts.challenge?.scope !== undefined ? ` for scope "${facts.challenge.scope}"` : '';
          return {
            status: 'failed',
            summary:
              facts.sentToken === true
                ? `The server refused the stored credentials (HTTP ${facts.status ?? 401})${scope}`
                : `The server requires sign-in (HTTP ${facts.status ?? 401})${scope}`,
            evidence: [
              ['Challenge', facts.challenge?.error],
              ['Scope', facts.challenge?.scope],
            ],
            advice:
              input.auth !== undefined
                ? 'Sign in from this server’s sign-in tab (in the browser, or with a code on another device), or set a bearer token there.'
                : 'Save the server, then sign in from its sign-in tab (in the browser, or with a code on another device), or set a bearer token.',
          };
        }
        return { status: 'failed', summary: 'The handshake did not complete' };
      }
      try {
        const tools = await established.client.listTools();
        return {
          summary: `${needsAuth || facts.sentToken === true ? 'Authorized with the stored credentials' : 'No authorization needed'}: tools/list answered with ${tools.tools.length} tool(s)`,
          evidence: [
            [
              'Tools',
              tools.tools
                .slice(0, 10)
                .map((x) => x.name)
                .join(', ') || '(none)',
            ],
          ],
        };
      } catch (err) {
        return {
          status: 'failed',
          summary: `tools/list failed: ${fact((err as Error).message, 300)}`,
          advice: 'The credentials may lack a scope the server needs; sign in again from the sign-in tab.',
        };
      }
    });
  } finally {
    const live = established as Established | undefined;
    await live?.client.close().catch(() => undefined);
    await live?.opened.release().catch(() => undefined);
  }
  return walk.result();
}

/** The HTTP status step: one request to the endpoint (POST initialize, or GET for SSE), body discarded. */
async function httpStatus(input: HttpWalkInput, facts: HttpFacts): Promise<StepOutcome> {
  const t = input.config.transport as { type: 'http' | 'sse'; url: string; headers: Record<string, string | { secret: true }> };
  const headers = new Headers(plainHeaders(t.headers));
  const token = await input.auth?.provider.token().catch(() => undefined);
  if (token !== undefined) {
    headers.set('authorization', `Bearer ${token}`);
    facts.sentToken = true;
  }
  const isSse = t.type === 'sse';
  let init: RequestInit;
  if (isSse) {
    headers.set('accept', 'text/event-stream');
    init = { method: 'GET', headers };
  } else {
    headers.set('accept', 'application/json, text/event-stream');
    headers.set('content-type', 'application/json');
    const body = {
      jsonrpc: '2.0',
      id: 'switchboard-doctor',
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: `${input.clientInfo.name}-doctor`, version: input.clientInfo.version },
      },
    };
    init = { method: 'POST', headers, body: JSON.stringify(body) };
  }
  let response: Response;
  try {
    response = await fetch(t.url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  } catch (err) {
    const cause = (err as Error).cause as NodeJS.ErrnoException | undefined;
    return {
      status: 'failed',
      summary: `The request failed: ${fact(cause?.message ?? (err as Error).message, 300)}`,
      advice: 'Check the server’s logs.',
    };
  }
  await response.body?.cancel().catch(() => undefined);
  const status = response.status;
  facts.status = status;
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const session = response.headers.get('mcp-session-id');
  if (session !== null && !isSse) {
    // The probe's own session is ended at once.
    void fetch(t.url, {
      method: 'DELETE',
      headers: { ...Object.fromEntries(headers), 'mcp-session-id': session },
      signal: AbortSignal.timeout(2000),
    })
      .then((r) => r.body?.cancel())
      .catch(() => undefined);
  }
  const evidence: [string, string | number | undefined][] = [
    ['Request', `${init.method} ${displayUrl(t.url)}`],
    ['Status', status],
    ['Content type', type || undefined],
  ];
  if (status === 401 || status === 403) {
    const params = extractWWWAuthenticateParams(response);
    facts.challenge = {
      ...(params.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: params.resourceMetadataUrl } : {}),
      ...(params.scope !== undefined ? { scope: params.scope } : {}),
      ...(params.error !== undefined ? { error: params.error } : {}),
    };
    return {
      summary: `HTTP ${status}: the server requires authorization${token !== undefined ? ' and refused the stored credentials' : ''}`,
      evidence: [...evidence, ['WWW-Authenticate', response.headers.get('www-authenticate') ?? undefined]],
    };
  }
  if (status >= 300 && status < 400) {
    const location = response.headers.get('location');
    return {
      status: 'failed',
      summary: `HTTP ${status}: the server redirects${location !== null ? ` to ${displayUrl(new URL(location, t.url).href)}` : ''}`,
      evidence,
      advice: 'Switchboard does not follow redirects: put the final address in the URL.',
    };
  }
  if (status === 404)
    return {
      status: 'failed',
      summary: 'HTTP 404: there is no MCP endpoint at this path',
      evidence,
      advice: 'Check the path; MCP endpoints are usually /mcp (Streamable HTTP) or /sse (legacy SSE).',
    };
  if (status === 405) {
    return {
      status: 'failed',
      summary: `HTTP 405: the endpoint does not accept ${init.method}`,
      evidence,
      advice: isSse
        ? 'This may be a Streamable HTTP endpoint: try the Streamable HTTP transport.'
        : 'This may be a legacy SSE endpoint: try the SSE transport.',
    };
  }
  if (status >= 400)
    return {
      status: 'failed',
      summary: `HTTP ${status}: the server refused the request`,
      evidence,
      advice: status >= 500 ? 'The server had an error; check its logs.' : 'Check the URL and headers.',
    };
  const expected = isSse ? ['text/event-stream'] : ['application/json', 'text/event-stream'];
  if (status !== 202 && status !== 204 && !expected.includes(type)) {
    return {
      status: 'failed',
      summary: `HTTP ${status} with content type "${fact(type || 'none', 80)}": this is not an MCP endpoint`,
      evidence,
      advice: 'The URL serves something else (a web page?). Check the path of the MCP endpoint.',
    };
  }
  return { summary: `HTTP ${status} (${type || 'no body'})`, evidence };
}
