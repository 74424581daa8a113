// OAuth requests go only where the policy allows: a public MCP server's metadata cannot aim the host's requests at
// this machine or the private network; a server on this machine may use local endpoints.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerConfigSchema, type ServerConfig } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import { oauthEndpointProblem } from '../../../electron/core/auth/endpoint-policy.js';
import { createOAuthFetch } from '../../../electron/core/auth/oauth-fetch.js';
import { describeAuthError } from '../../../electron/core/auth/auth-errors.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

function httpConfig(url: string): ServerConfig {
  return ServerConfigSchema.parse({ id: 's', name: 's', transport: { type: 'http', url, headers: {} } });
}

describe('oauthEndpointProblem', () => {
  const publicServer = 'https://mcp.example.com/mcp';
  it.each([
    'http://169.254.169.254/latest/meta-data/iam',
    'https://127.0.0.1:8443/token',
    'https://localhost/register',
    'https://10.0.0.5/token',
    'https://[fd00::5]/token',
    'https://metadata.google.internal/computeMetadata/v1/',
  ])('refuses %s for a server on the internet', (target) => {
    expect(oauthEndpointProblem(target, publicServer)).toMatch(/not sent/);
  });

  it('refuses plain http to a public host, allows https to one and the server’s own origin', () => {
    expect(oauthEndpointProblem('http://auth.example.org/token', publicServer)).toMatch(/https/);
    expect(oauthEndpointProblem('https://auth.example.org/token', publicServer)).toBeNull();
    expect(oauthEndpointProblem('https://mcp.example.com/.well-known/oauth-protected-resource/mcp', publicServer)).toBeNull();
  });

  it('allows local and private endpoints when the MCP server itself runs on this machine', () => {
    expect(oauthEndpointProblem('http://127.0.0.1:9000/token', 'http://127.0.0.1:8000/mcp')).toBeNull();
    expect(oauthEndpointProblem('http://10.0.0.5/token', 'http://localhost:8000/mcp')).toBeNull();
  });

  it('allows the origins the person configured (a pinned issuer on the private network)', () => {
    expect(oauthEndpointProblem('https://10.0.0.5/token', publicServer, ['https://10.0.0.5'])).toBeNull();
    expect(oauthEndpointProblem('https://10.0.0.6/token', publicServer, ['https://10.0.0.5'])).not.toBeNull();
  });
});

describe('the OAuth fetch', () => {
  it('never sends a request the policy refuses, and says why', async () => {
    const sent: string[] = [];
    const base: FetchLike = async (input) => {
      sent.push(typeof input === 'string' ? input : input.href);
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    };
    const logs: string[] = [];
    const oauthFetch = createOAuthFetch(
      httpConfig('https://mcp.example.com/mcp'),
      base,
      (_l, t) => logs.push(t),
      () => undefined,
    );
    const err = await oauthFetch('http://169.254.169.254/latest/meta-data/').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('url_refused');
    expect((err as AppError).message).toMatch(/private network/);
    expect(sent).toEqual([]);
    expect(logs.some((l) => l.includes('169.254.169.254'))).toBe(true);
    await oauthFetch('https://auth.example.org/token', { method: 'POST' });
    expect(sent).toEqual(['https://auth.example.org/token']);
  });

  it('reaches a real local authorization server when the MCP server is local', async () => {
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    const oauthFetch = createOAuthFetch(
      httpConfig('http://localhost:1/mcp'),
      undefined,
      () => undefined,
      () => undefined,
    );
    const res = await oauthFetch(`http://127.0.0.1:${port}/token`);
    expect(await res.json()).toEqual({ ok: true });
  });
});

describe('OAuth failure messages', () => {
  it('turn schema issue arrays into a readable sentence', () => {
    const issues = [
      {
        code: 'invalid_type',
        expected: 'string',
        path: ['authorization_endpoint'],
        message: 'Invalid input: expected string, received number',
      },
      { code: 'invalid_type', expected: 'string', path: ['issuer'], message: 'Invalid input: expected string, received undefined' },
    ];
    const raw = new Error(`Invalid token response: ${JSON.stringify(issues, null, 2)}`);
    const text = describeAuthError('s', raw).message;
    expect(text).toBe(
      "The authorization server's token response is not valid: authorization_endpoint: Invalid input: expected string, received number; issuer: Invalid input: expected string, received undefined",
    );
    const zodLike = Object.assign(new Error(JSON.stringify(issues)), { issues });
    expect(describeAuthError('s', zodLike).message).toMatch(/^The authorization server's metadata is not valid: authorization_endpoint/);
    expect(describeAuthError('s', zodLike).message).not.toContain('"code"');
  });
});
