// Upstream secrets never leave Switchboard through the gateway (a real OAuth-protected server signed in with a
// canary token, a stdio server with a canary secret env value), and a server that needs sign-in shows up as an
// error that says to open Switchboard and sign in.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthCredentials } from '../../../electron/core/auth/credentials.js';
import { startWorld, type World } from '../../fixtures/auth/oauth-world.js';
import { addHttpServer, makeAuthHost, type AuthHarness } from '../auth/helpers.js';
import { fixture, textOf } from './harness.js';
import { dataFileTexts } from '../../shared/support/data-files.js';
import { TSX_LOADER } from '../../shared/support/tsx-loader.js';

const ENV_SECRET = 'CANARY_ENV_3f9a1c';
let world: World;
let signer: AuthHarness;
let h: AuthHarness;
let url = '';
let token = '';
let progressive = '';
let upstreamToken = '';
const seen: string[] = [];
const clients: Client[] = [];

async function open(bearer: string, mode: 'auto' | 'legacy'): Promise<Client> {
  const c = new Client({ name: 'secrets-test', version: '1' }, { versionNegotiation: { mode } });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }));
  clients.push(c);
  return c;
}

/** Records a response (or an error's message) for the canary scan. */
async function record<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    const v = await p;
    seen.push(JSON.stringify(v));
    return v;
  } catch (err) {
    seen.push(String((err as Error).message));
    return undefined;
  }
}

beforeAll(async () => {
  world = await startWorld({ tokenPrefix: 'CANARY_' });
  signer = makeAuthHost();
  await addHttpServer(signer.host, 'p', world.mcpUrl);
  signer.opener.onOpen = async (u) => {
    await fetch(await world.consent(u));
  };
  await signer.auth.begin('p');
  await signer.auth.settled('p');
  upstreamToken = (await new AuthCredentials(signer.credentials).grant('p', world.mcpUrl))!.tokens.access_token;

  h = makeAuthHost();
  await addHttpServer(h.host, 'svc', world.mcpUrl);
  await h.auth.setBearer('svc', upstreamToken);
  await h.host.add({
    id: 'env',
    name: 'env',
    startup: 'manual',
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: ['--import', TSX_LOADER, fixture('calls-stdio.ts')],
      env: { API_KEY: { secret: true, value: ENV_SECRET } },
    },
  });
  await h.host.approve('env', (await h.host.get('env')).approval!.fingerprint);
  for (const id of ['svc', 'env']) {
    await h.sessions.connect(id);
    await h.host.catalog.refresh(id);
  }
  url = (await h.host.gateway.enable(0)).url!;
  token = (await h.host.gateway.addClient('apps', { mode: 'all', writes: 'allow' })).token;
  progressive = (await h.host.gateway.addClient('explorer', { mode: 'progressive', writes: 'allow' })).token;
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await h?.cleanup();
  await signer?.cleanup();
  await world?.close();
});

describe('upstream secrets', () => {
  it('never appear in gateway responses, its files or its events', async () => {
    expect(upstreamToken.startsWith('CANARY_')).toBe(true);
    for (const mode of ['auto', 'legacy'] as const) {
      const c = await open(token, mode);
      const tools = await record(c.listTools());
      expect(tools?.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['mcp__svc__whoami', 'mcp__env__read']));
      const who = await record(c.callTool({ name: 'mcp__svc__whoami', arguments: {} }));
      expect(textOf(who)).toBe('alice');
      await record(c.callTool({ name: 'mcp__env__read', arguments: { ms: 1, label: 'x' } }));
      await record(c.listPrompts());
      await record(c.listResources());
      await record(c.callTool({ name: 'mcp__svc__nope', arguments: {} }));
    }
    const p = await open(progressive, 'auto');
    await record(p.callTool({ name: 'tools_groups', arguments: {} }));
    await record(p.callTool({ name: 'tools_select', arguments: { group: 'mcp:svc' } }));
    await record(p.callTool({ name: 'tools_search', arguments: { query: 'who' } }));
    seen.push(JSON.stringify(h.host.gateway.status()), JSON.stringify(h.host.gateway.clients()), JSON.stringify(h.host.gateway.activity()));
    seen.push(JSON.stringify(h.events));
    seen.push(...dataFileTexts(h.dir));
    const all = seen.join('\n');
    expect(all.length).toBeGreaterThan(1000);
    expect(all).not.toContain(upstreamToken);
    expect(all).not.toContain(ENV_SECRET);
    expect(all).not.toContain(token);
  });
});

describe('a server that needs sign-in', () => {
  it('answers calls with an error that says to open Switchboard and sign in, and shows in the groups directory', async () => {
    await h.auth.setBearer('svc', 'CANARY_wrong');
    expect((await h.sessions.connect('svc')).state).toBe('needs-auth');
    const c = await open(token, 'auto');
    const result = await c.callTool({ name: 'mcp__svc__whoami', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('svc needs you to sign in. Open Switchboard and sign in to svc, then try again.');
    const p = await open(progressive, 'auto');
    const groups = JSON.parse(textOf(await p.callTool({ name: 'tools_groups', arguments: {} }))) as {
      groups: { id: string; status?: string }[];
    };
    expect(groups.groups.find((g) => g.id === 'mcp:svc')?.status).toMatch(/needs sign-in: open Switchboard and sign in to svc/);
    expect(JSON.stringify([result, groups])).not.toContain('CANARY_');
  });
});
