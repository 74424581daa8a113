// The connection doctor's HTTP walk through servers.test, against real servers on 127.0.0.1: a healthy Streamable
// HTTP server passes; one test per failing step (unknown host, refused port, self-signed TLS, 404 metadata, wrong
// protocol version, 401); and a saved server's credentials are used. Nothing is saved by a walk.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { nodeHttpHandler } from '../../../electron/core/sdk/node-handler.js';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { DoctorStep, DoctorWalk } from '../../../shared/domains/doctor.js';
import type { LookupFn } from '../../../electron/core/doctor/net-probes.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { createDispatcher } from '../../../electron/core/dispatcher.js';
import { startWorld, type World } from '../../fixtures/auth/oauth-world.js';
import { addHttpServer, makeAuthHost, type AuthHarness } from '../auth/helpers.js';
import { call, cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';

let dir: string;
let h: HostHarness;
const servers: Server[] = [];
beforeEach(() => {
  dir = tempDir('sb-doctor-http-');
  h = makeHost(dir);
});
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  cleanup(dir);
});

const walkOf = (url: string, type: 'http' | 'sse' = 'http') =>
  call<DoctorWalk>(h.dispatch, 'servers.test', { config: { id: 'remote', name: 'Remote', transport: { type, url, headers: {} } } });
const step = (walk: DoctorWalk, id: string): DoctorStep => {
  const found = walk.steps.find((s) => s.id === id);
  if (!found) throw new Error(`no step ${id}`);
  return found;
};
const statuses = (walk: DoctorWalk) => walk.steps.map((s) => `${s.id}:${s.status}`);
const evidence = (s: DoctorStep, label: string) => s.evidence.find((e) => e.label === label)?.value;

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A healthy SDK v2 Streamable HTTP server (tool: echo). */
function mcpHandler() {
  return nodeHttpHandler(
    createMcpHandler(() => {
      const server = new McpServer({ name: 'doctor-http', version: '1.2.3' }, { capabilities: { tools: {} } });
      server.registerTool('echo', { description: 'Echo', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
        content: [{ type: 'text', text }],
      }));
      return server;
    }),
  );
}

describe('HTTP doctor walk', () => {
  it('passes every step against a healthy server, skipping what does not apply', async () => {
    const handler = mcpHandler();
    const port = await listen(
      createHttpServer((req, res) => {
        if (req.url === '/mcp') void handler(req, res);
        else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }),
    );
    const walk = await walkOf(`http://127.0.0.1:${port}/mcp`);
    expect(statuses(walk)).toEqual([
      'url:passed',
      'dns:passed',
      'tcp:passed',
      'tls:skipped',
      'http:passed',
      'resource-metadata:skipped',
      'auth-metadata:skipped',
      'protocol:passed',
      'authorization:passed',
    ]);
    expect(walk.ok).toBe(true);
    expect(step(walk, 'dns').summary).toBe('127.0.0.1 is an IP address; nothing to resolve');
    expect(step(walk, 'tcp').summary).toBe(`Connected to 127.0.0.1 port ${port}`);
    expect(step(walk, 'http').summary).toMatch(/^HTTP 200 \((application\/json|text\/event-stream)\)$/);
    expect(evidence(step(walk, 'protocol'), 'Server')).toBe('doctor-http 1.2.3');
    expect(step(walk, 'authorization').summary).toBe('No authorization needed: tools/list answered with 1 tool(s)');
    expect(await call(h.dispatch, 'servers.list', {})).toEqual([]);

    const missing = await walkOf(`http://127.0.0.1:${port}/nope`);
    expect(walk.failedStep).toBeUndefined();
    expect(missing.failedStep).toBe('http');
    expect(step(missing, 'http').summary).toBe('HTTP 404: there is no MCP endpoint at this path');
  });

  it('unknown host: the resolver’s answer and what to check', async () => {
    // The resolver is injected so no query leaves this machine; it knows only localhost.
    const lookup: LookupFn = (hostname, _opts, callback) => {
      if (hostname === 'localhost') callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    };
    await h.host.shutdown();
    h = makeHost(dir, { ports: { doctorLookup: lookup } });
    const walk = await walkOf('https://mcp.no-such-host.invalid/mcp');
    expect(statuses(walk)).toEqual([
      'url:passed',
      'dns:failed',
      'tcp:skipped',
      'tls:skipped',
      'http:skipped',
      'resource-metadata:skipped',
      'auth-metadata:skipped',
      'protocol:skipped',
      'authorization:skipped',
    ]);
    const s = step(walk, 'dns');
    expect(s.summary).toBe('mcp.no-such-host.invalid does not resolve (ENOTFOUND)');
    expect(s.advice).toMatch(/typos/);
  });

  it('refused port: nothing is listening', async () => {
    const port = await listen(createHttpServer());
    const closing = servers.pop()!;
    await new Promise((r) => closing.close(r));
    const walk = await walkOf(`http://127.0.0.1:${port}/mcp`);
    expect(walk.failedStep).toBe('tcp');
    const s = step(walk, 'tcp');
    expect(s.summary).toBe(`Nothing is listening at 127.0.0.1 port ${port} (connection refused)`);
    expect(evidence(s, `127.0.0.1:${port}`)).toBe('ECONNREFUSED');
    expect(s.advice).toMatch(/server is running/);
    // The authorization steps were never reached: "Not run", never "Not needed".
    for (const id of ['resource-metadata', 'auth-metadata']) {
      expect(step(walk, id)).toMatchObject({ status: 'skipped', summary: 'Not run: "TCP connection" failed' });
    }
  });

  it('self-signed TLS: refused, with the certificate’s subject and expiry', async () => {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        '/CN=doctor.test',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const handler = mcpHandler();
    const port = await listen(
      createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => void handler(req, res)),
    );
    const walk = await walkOf(`https://127.0.0.1:${port}/mcp`);
    expect(statuses(walk).slice(0, 5)).toEqual(['url:passed', 'dns:passed', 'tcp:passed', 'tls:failed', 'http:skipped']);
    const s = step(walk, 'tls');
    expect(evidence(s, 'Reason')).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(evidence(s, 'Certificate subject')).toBe('CN=doctor.test');
    expect(evidence(s, 'Valid until')).toMatch(/GMT$/);
    expect(evidence(s, 'Names')).toBe('IP Address:127.0.0.1');
    expect(s.advice).toMatch(/self-signed/);
  });

  it('404 metadata: asks for authorization but publishes no protected-resource metadata', async () => {
    const port = await listen(
      createHttpServer((req: IncomingMessage, res: ServerResponse) => {
        if (req.url === '/mcp')
          res.writeHead(401, { 'www-authenticate': 'Bearer realm="x"', 'content-type': 'application/json' }).end('{}');
        else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }),
    );
    const walk = await walkOf(`http://127.0.0.1:${port}/mcp`);
    expect(statuses(walk).slice(4, 7)).toEqual(['http:passed', 'resource-metadata:failed', 'auth-metadata:skipped']);
    expect(step(walk, 'http').summary).toBe('HTTP 401: the server requires authorization');
    const s = step(walk, 'resource-metadata');
    expect(s.summary).toMatch(/protected-resource metadata \(RFC 9728\) could not be read/);
    expect(evidence(s, `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`)).toBe('HTTP 404');
    expect(s.advice).toMatch(/bearer token/);
  });

  it('wrong protocol version: the handshake names the version the server offered', async () => {
    const port = await listen(
      createHttpServer((req: IncomingMessage, res: ServerResponse) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          if (req.method !== 'POST') return void res.writeHead(405).end();
          const msg = JSON.parse(body) as { id?: string | number; method: string };
          if (msg.id === undefined) return void res.writeHead(202).end();
          const reply =
            msg.method === 'initialize'
              ? {
                  jsonrpc: '2.0',
                  id: msg.id,
                  result: { protocolVersion: '1999-01-01', capabilities: { tools: {} }, serverInfo: { name: 'ancient', version: '0.1' } },
                }
              : { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
        });
      }),
    );
    const walk = await walkOf(`http://127.0.0.1:${port}/mcp`);
    expect(statuses(walk).slice(4)).toEqual([
      'http:passed',
      'resource-metadata:skipped',
      'auth-metadata:skipped',
      'protocol:failed',
      'authorization:skipped',
    ]);
    const s = step(walk, 'protocol');
    expect(s.summary).toMatch(/1999-01-01/);
    expect(evidence(s, 'Error')).toBe('protocol_mismatch');
    expect(s.advice).toMatch(/protocol revision/);
  });

  it('401: metadata found, the server requires sign-in', async () => {
    const world: World = await startWorld();
    try {
      const walk = await walkOf(world.mcpUrl);
      expect(statuses(walk)).toEqual([
        'url:passed',
        'dns:passed',
        'tcp:passed',
        'tls:skipped',
        'http:passed',
        'resource-metadata:passed',
        'auth-metadata:passed',
        'protocol:skipped',
        'authorization:failed',
      ]);
      expect(evidence(step(walk, 'resource-metadata'), 'Authorization servers')).toBe(world.issuer);
      expect(evidence(step(walk, 'auth-metadata'), 'PKCE S256')).toBe('supported');
      const s = step(walk, 'authorization');
      expect(s.summary).toBe('The server requires sign-in (HTTP 401) for scope "mcp:read"');
      expect(s.advice).toMatch(/sign in from its sign-in tab/);
    } finally {
      await world.close();
    }
  });
});

describe('HTTP doctor walk of a saved server', () => {
  let a: AuthHarness | undefined;
  let world: World | undefined;
  afterEach(async () => {
    await a?.cleanup();
    await world?.close();
    a = undefined;
    world = undefined;
  });

  it('a saved server without a sign-in fails at authorization, never "every step passed"', async () => {
    world = await startWorld();
    a = makeAuthHost();
    await addHttpServer(a.host, 'm', world.mcpUrl);
    const walk = await call<DoctorWalk>(createDispatcher(createHandlers(a.host)), 'servers.test', { id: 'm' });
    expect(statuses(walk).slice(4)).toEqual([
      'http:passed',
      'resource-metadata:passed',
      'auth-metadata:passed',
      'protocol:skipped',
      'authorization:failed',
    ]);
    expect(walk.ok).toBe(false);
    expect(walk.failedStep).toBe('authorization');
    expect(step(walk, 'protocol').summary).toBe('Needs authorization first: the server refused the handshake');
    expect(step(walk, 'authorization').summary).toBe('The server requires sign-in (HTTP 401) for scope "mcp:read"');
  });

  it('uses the saved server’s credentials', async () => {
    world = await startWorld({ machineClient: { id: 'machine', secret: 'CANARY_walk_secret', method: 'client_secret_basic' } });
    a = makeAuthHost();
    await addHttpServer(a.host, 'm', world.mcpUrl);
    await a.auth.setClient('m', {
      grant: 'client_credentials',
      clientId: 'machine',
      clientSecret: 'CANARY_walk_secret',
      issuer: world.issuer,
    });
    const dispatch = createDispatcher(createHandlers(a.host));
    const walk = await call<DoctorWalk>(dispatch, 'servers.test', { id: 'm' });
    expect(statuses(walk).slice(4)).toEqual([
      'http:passed',
      'resource-metadata:skipped',
      'auth-metadata:skipped',
      'protocol:passed',
      'authorization:passed',
    ]);
    expect(step(walk, 'authorization').summary).toBe('Authorized with the stored credentials: tools/list answered with 1 tool(s)');
    expect(JSON.stringify(walk)).not.toContain('CANARY_walk_secret');
    expect(JSON.stringify(walk)).not.toMatch(/at_[A-Za-z0-9_-]{20,}/);
  });
});
