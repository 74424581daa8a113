// The client under test for the MCP conformance suites: a scripted user of Switchboard's core. It connects
// through the real Host, SessionManager, transports, AuthManager (our OAuth provider, state check, redirect
// listener) and credential store; its "browser" follows the authorization URL and delivers the redirect to our
// loopback listener. Usage (by the conformance tool): MCP_CONFORMANCE_SCENARIO=... client.ts <server-url>
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserOpener } from '../../electron/core/auth/auth-ports.js';
import { checkAuthorizationUrl } from '../../electron/core/auth/safe-url.js';
import { createCore } from '../../electron/core/compose.js';
import { createLogger } from '../../electron/core/logging/logger.js';
import { MODERN_PROTOCOL_VERSION } from '../../electron/core/sessions/lifecycle.js';
import { SessionManager } from '../../electron/core/sessions/session-manager.js';
import { createTransport } from '../../electron/core/transports/create-transport.js';
import { MemoryCredentialStore } from '../../electron/platform/memory-credential-store.js';
import { listenForRedirect } from '../../electron/platform/redirect-listener.js';
import { createSettingsStore } from '../../electron/platform/settings-store.js';
import { AppError } from '../../shared/errors.js';

/** Client ID Metadata Document URL offered when the server supports CIMD (as the reference client does). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

interface Context {
  name: string;
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_issuer?: string;
  idp_token_endpoint?: string;
  valid_jwt?: string;
  /** Calls the scenario wants made, with their arguments (http-custom-headers). */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

/** The user's browser: follow the authorization server's redirects until it sends us to the loopback listener. */
const browser: BrowserOpener = {
  kind: 'browser',
  async open(url: URL): Promise<void> {
    let next = checkAuthorizationUrl(url.href).href;
    for (let i = 0; i < 10; i++) {
      const res = await fetch(next, { redirect: 'manual' });
      await res.body?.cancel();
      const location = res.headers.get('location');
      if (location === null) throw new Error(`The authorization server answered ${res.status} without a redirect`);
      const target = new URL(location, next);
      if (target.pathname === '/callback' && target.hostname === '127.0.0.1') {
        await fetch(target);
        return;
      }
      next = target.href;
    }
  },
};

async function main(): Promise<void> {
  const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
  const protocolVersion = process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'] ?? '2025-11-25';
  const serverUrl = process.argv[2];
  if (serverUrl === undefined) throw new Error('usage: client.ts <server-url>');
  const ctx: Context | undefined = process.env['MCP_CONFORMANCE_CONTEXT']
    ? (JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT']) as Context)
    : undefined;

  const dir = mkdtempSync(join(tmpdir(), 'sb-conformance-'));
  const credentials = new MemoryCredentialStore();
  const host = createCore({
    mode: 'headless',
    version: '0.0.0-conformance',
    settingsStore: createSettingsStore(dir),
    credentials,
    logger: createLogger(),
    transports: createTransport,
    createSessions: (h, transports) => new SessionManager(h, { credentials, createTransport: transports }),
    auth: { opener: browser, listen: listenForRedirect, log: (_id, level, text) => console.error(`[auth ${level}] ${text}`) },
  });
  const auth = host.auth;
  // The user answers form elicitations by accepting the defaults offered (an empty form), from a window they see.
  host.presence.set('conformance-window', 'visible');
  host.events.subscribe((event, payload) => {
    if (event !== 'elicitation.requested') return;
    const { request } = payload as { request: { requestId: string } };
    void host.interaction.elicitation.respond(request.requestId, 'accept', {}).catch((err: unknown) => {
      console.error('elicitation answer failed:', err instanceof Error ? err.message : String(err));
    });
  });
  try {
    await host.add({
      id: 'conf',
      name: 'conformance',
      transport: { type: 'http', url: serverUrl, headers: {}, allowInsecureHttp: false },
      startup: 'manual',
      // The revision the scenario speaks: 2026-07-28 scenarios answer only server/discover (no initialize),
      // the dated ones only initialize. Pinning either side keeps a probe out of scenarios that count requests.
      lifecycle: protocolVersion === MODERN_PROTOCOL_VERSION ? 'discover' : 'initialize',
      // The user opted this server into elicitation (the scenario asks for form input with defaults).
      elicitation: true,
    });

    if (ctx?.name === 'auth/client-credentials-basic') {
      await auth.setClient('conf', {
        grant: 'client_credentials',
        clientId: ctx.client_id ?? '',
        clientSecret: ctx.client_secret ?? '',
        authMethod: 'client_secret_basic',
      });
    } else if (ctx?.name === 'auth/client-credentials-jwt') {
      await auth.setClient('conf', {
        grant: 'client_credentials',
        clientId: ctx.client_id ?? '',
        privateKeyPem: ctx.private_key_pem ?? '',
        authMethod: 'private_key_jwt',
      });
    } else if (
      (scenario === 'auth/enterprise-managed-authorization' || scenario === 'auth/cross-app-access-complete-flow') &&
      ctx !== undefined
    ) {
      // Enterprise-managed authorization (0.2 names the 0.1 cross-app-access scenario so): the same ID-JAG flow.
      // The user signed in at their enterprise IdP elsewhere and pasted the ID token it issued.
      await auth.setClient('conf', {
        grant: 'cross_app_access',
        clientId: ctx.client_id ?? '',
        clientSecret: ctx.client_secret ?? '',
        idpIssuer: ctx.idp_issuer ?? '',
        // This IdP's OpenID metadata lacks required fields, so the user entered its token endpoint too.
        ...(ctx.idp_token_endpoint !== undefined ? { idpTokenEndpoint: ctx.idp_token_endpoint } : {}),
        idpClientId: ctx.idp_client_id ?? '',
        idToken: ctx.idp_id_token ?? '',
      });
    } else if (scenario === 'auth/wif-jwt-bearer' && ctx !== undefined) {
      // A workload: its platform issued it an identity token for this authorization server.
      await auth.setClient('conf', { grant: 'workload_identity', clientId: ctx.client_id ?? '', workloadToken: ctx.valid_jwt ?? '' });
    } else if (ctx?.name === 'auth/pre-registration') {
      await auth.setClient('conf', { grant: 'authorization_code', clientId: ctx.client_id ?? '', clientSecret: ctx.client_secret ?? '' });
    } else if (scenario.startsWith('auth/')) {
      await auth.setClient('conf', { grant: 'authorization_code', metadataUrl: CIMD_URL });
    }

    /**
     * The arguments this user calls a tool with: the scenario's own (its context lists calls), the numbers for
     * add_numbers, the echo tool given the schema of its sibling as Switchboard's catalog holds it (so the scenario
     * sees what our listing kept of a JSON Schema 2020-12 document), and otherwise none.
     */
    const argumentsFor = async (name: string): Promise<Record<string, unknown>[]> => {
      const given = (ctx?.toolCalls ?? []).filter((c) => c.name === name).map((c) => c.arguments);
      if (given.length > 0) return given;
      if (name === 'add_numbers') return [{ a: 1, b: 2 }];
      if (name === 'json_schema_echo') {
        await host.catalog.refresh('conf');
        const listed = host.catalog.serverTools('conf').find((t) => t.route.originalName === 'json_schema_2020_12_tool');
        if (listed === undefined) throw new Error('json_schema_2020_12_tool is not in the catalog');
        return [{ schema: listed.route.tool.inputSchema }];
      }
      return [{}];
    };

    // One user action: connect, list, call. Authorization failures run a sign-in (at most 3 per action).
    await auth.runAuthorized('conf', async () => {
      try {
        const status = await host.sessions.connect('conf');
        if (status.state !== 'connected') {
          throw status.error ? AppError.fromData(status.error) : new AppError('connect_failed', `state ${status.state}`);
        }
        const client = await host.sessions.client('conf');
        const { tools } = await client.listTools();
        // The $ref scenario's server answers tools/list only: this user looks at the tool and does not run it.
        const calls = scenario === 'json-schema-ref-no-deref' ? [] : tools;
        for (const tool of calls) {
          for (const args of await argumentsFor(tool.name)) await client.callTool({ name: tool.name, arguments: args });
        }
        if (scenario.startsWith('sep-2640-client-')) {
          // The user opens the server's Skills tab (a listing, which reads no file), then, except in the no-prefetch
          // scenario, loads each skill: its SKILL.md is read and checked, and one that fails is refused, not used.
          const listing = await host.skills.list('conf');
          if (scenario !== 'sep-2640-client-no-prefetch') {
            for (const skill of listing.skills) {
              try {
                await host.skills.readFile('conf', skill.uri, skill.uri);
              } catch (err) {
                if (!(err instanceof AppError && err.code === 'skill_unverified')) throw err;
                console.error(`skill refused: ${err.message}`);
              }
            }
          }
        }
        if (scenario === 'http-standard-headers') {
          // This user also opens the server's resources and prompts (the scenario checks their request headers);
          // elsewhere they do not, so skill scenarios that count resource reads see none they did not ask for.
          const { resources } = await client.listResources();
          if (resources[0] !== undefined) await client.readResource({ uri: resources[0].uri });
          const { prompts } = await client.listPrompts();
          if (prompts[0] !== undefined) await client.getPrompt({ name: prompts[0].name });
        }
      } catch (err) {
        await host.sessions.disconnect('conf');
        throw err;
      }
    });
  } finally {
    await host.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error('Error:', err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
