// `switchboard-gateway --client NAME [--data-dir DIR]`: the stdio entry point for apps that only launch stdio
// servers. It finds the running Switchboard's gateway in the endpoint file (mode 0600, in the data folder),
// authenticates as the named client with a token derived from that launch's key, and serves MCP on stdio by
// forwarding to it. When Switchboard is not running it says so at once and exits; it never starts anything.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { parseArgs } from 'node:util';
import { launchToken } from '../core/gateway/client-tokens.js';
import { readEndpoint } from '../core/gateway/endpoint-file.js';
import { sanitizeText } from '../core/text.js';
import { processAlive } from '../core/transports/process-group.js';
import { defaultDataDir } from '../core/storage/default-data-dir.js';
import type { Server } from '@modelcontextprotocol/server';
import type { Client } from '@modelcontextprotocol/client';
import { connectGateway, GAP_LIMITS, gapRetryingFetch, proxyServer, statusOf, Upstream } from './proxy.js';

declare const __APP_VERSION__: string;
const VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0';
const NOT_RUNNING =
  'Switchboard is not running, or its gateway is off. Start Switchboard, turn the gateway on in its Gateway view, and try again.';

const USAGE = `Usage: switchboard-gateway --client NAME [--data-dir DIR]

Serves the servers Switchboard manages to this app over MCP on stdio, through the running Switchboard.
  --client NAME    the gateway client (as named in Switchboard's Gateway view)
  --data-dir DIR   Switchboard's data folder (default: ${defaultDataDir()})`;

function fail(message: string): number {
  process.stderr.write(`switchboard-gateway: ${sanitizeText(message)}\n`);
  return 1;
}

/** How often the endpoint file is looked for while a core restarts. */
const ENDPOINT_POLL_MS = 250;

/**
 * The endpoint file, waiting out a core restart: the shell removes a dead core's file and the new core writes its own
 * once its gateway is open (a reconnect begun the moment the old core went finds none yet). Undefined when no file
 * came within the gap's limit (Switchboard quit, or its gateway stayed off).
 */
async function endpointAfterGap(dataDir: string): Promise<ReturnType<typeof readEndpoint>> {
  const deadline = Date.now() + GAP_LIMITS.totalMs;
  for (;;) {
    let found: ReturnType<typeof readEndpoint>;
    try {
      found = readEndpoint(dataDir);
    } catch {
      // Being rewritten: looked at again below.
      found = undefined;
    }
    if (found || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, ENDPOINT_POLL_MS));
  }
}

/** Runs the entry point; resolves with an exit code when it cannot start, or keeps serving until stdin closes. */
export async function run(argv: string[]): Promise<number | undefined> {
  let values: { client?: string; 'data-dir'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { client: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (err) {
    return fail(`${(err as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return 0;
  }
  if (!values.client) return fail(`--client NAME is required.\n${USAGE}`);
  const dataDir = values['data-dir'] ?? defaultDataDir();
  let endpoint;
  try {
    endpoint = readEndpoint(dataDir);
  } catch (err) {
    return fail(`${(err as Error).message} ${NOT_RUNNING}`);
  }
  if (!endpoint || !processAlive(endpoint.pid)) return fail(NOT_RUNNING);
  const wanted = values.client.trim().toLowerCase();
  const client = endpoint.clients.find((c) => c.name.toLowerCase() === wanted || c.id === wanted);
  if (!client) return fail(`Switchboard has no gateway client named "${values.client}". Add one in Switchboard's Gateway view.`);

  let current: Server | undefined;
  let first: Client;
  const changed = (kind: 'tools' | 'prompts' | 'resources'): void => {
    const s = current;
    if (!s) return;
    const send = kind === 'tools' ? s.sendToolListChanged() : kind === 'prompts' ? s.sendPromptListChanged() : s.sendResourceListChanged();
    // A client that closed its end meanwhile needs no notice.
    void send.catch(() => undefined);
  };
  const say = (line: string): void => void process.stderr.write(`switchboard-gateway: ${sanitizeText(line)}\n`);
  // Retries wait out a core restart only once connected: a Switchboard that is not running is reported at once.
  let connected = false;
  // Set once connected (the fetch below is built first: the connection needs it).
  const held: { upstream?: Upstream } = {};
  const fetchFn = gapRetryingFetch({
    enabled: () => connected,
    onGap: (detail) => {
      say(`${detail}; waiting for it to come back`);
      held.upstream?.markStale();
    },
  });
  const clientId = client.id;
  let known = endpoint;
  // Each connection reads the endpoint file again: a core started since writes its own launch key there.
  const open = async (): Promise<Client> => {
    if (connected) {
      const latest = await endpointAfterGap(dataDir);
      if (!latest) throw new Error(NOT_RUNNING);
      known = latest;
    }
    if (!known.clients.some((c) => c.id === clientId))
      throw new Error(`Switchboard has no gateway client "${values.client ?? ''}" any more.`);
    try {
      return await connectGateway(known.url, launchToken(known.key, clientId), VERSION, changed, fetchFn);
    } catch (err) {
      // Read during the gap, the file still named the dead core's key: the new core has written its own since.
      const latest = connected && statusOf(err) === 401 ? await endpointAfterGap(dataDir) : undefined;
      if (statusOf(err) !== 401 || !latest || latest.key === known.key) throw err;
      known = latest;
      return connectGateway(known.url, launchToken(known.key, clientId), VERSION, changed, fetchFn);
    }
  };
  try {
    first = await open();
    connected = true;
  } catch (err) {
    const status = statusOf(err);
    if (status === 401) return fail(`Switchboard refused the client "${client.name}" (was it removed?).`);
    return fail(NOT_RUNNING);
  }
  const up = new Upstream(first, {
    open,
    log: say,
    reconnected: () => {
      for (const kind of ['tools', 'prompts', 'resources'] as const) changed(kind);
    },
  });
  held.upstream = up;
  const handle = serveStdio(
    () => {
      current = proxyServer(up, VERSION);
      return current;
    },
    { onerror: () => undefined },
  );
  const stop = async (): Promise<void> => {
    await handle.close().catch(() => undefined);
    await up.close();
    process.exit(0);
  };
  process.stdin.once('end', () => void stop());
  process.stdin.once('close', () => void stop());
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  return undefined;
}

/** Runs the entry point with these arguments and exits when it cannot start (it keeps serving otherwise). */
export function runAndExit(argv: string[]): void {
  run(argv).then(
    (code) => {
      if (code !== undefined) process.exit(code);
    },
    (err: unknown) => process.exit(fail(`unexpected failure: ${err instanceof Error ? err.message : 'unknown'}`)),
  );
}
