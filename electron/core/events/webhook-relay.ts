// Webhooks through a relay: a desktop app has no address a server on the internet can reach, and Switchboard opens
// no listener for webhooks, so a webhook subscription may name a relay — another MCP server the person added (one
// they host, or one on this computer behind a tunnel they run) that receives the server's POSTs and hands them to
// Switchboard over MCP. The relay is driven through three tools, called for the application (never the model):
//   webhook_relay_endpoint { key }             → { url }            the callback URL to register (same key, same endpoint)
//   webhook_relay_take { waitMs, max }         → { deliveries: [{ id, headers, body }] }   long wait; body is base64
//   webhook_relay_answer { id, status, body? } → {}                 the reply the relay sends back to the POST
// The relay holds each POST until it is answered (or answers 503 itself after a while, which the server retries), so
// a verification challenge is echoed and a 401 or 410 reaches the sender exactly as Switchboard decided it. Every
// delivery is verified (Standard Webhooks signature, freshness, the subscription's secret) before it is stored: the
// relay is trusted with nothing but carrying bytes.
import type { Client } from '@modelcontextprotocol/client';
import * as z from 'zod';
import { label } from './payload.js';
import { MAX_WEBHOOK_BODY, type WebhookDelivery, type WebhookReply } from './webhook-types.js';

/** The relay convention's tool names. */
export const RELAY_TOOLS = {
  endpoint: 'webhook_relay_endpoint',
  take: 'webhook_relay_take',
  answer: 'webhook_relay_answer',
} as const;

const RELAY_TOOL_NAMES: ReadonlySet<string> = new Set(Object.values(RELAY_TOOLS));

/**
 * The servers that are webhook relays: one a webhook subscription reads through, or one whose catalog offers any of
 * the relay tools. A relay hands out the callback URLs and the deliveries of Switchboard's own subscriptions, so a
 * gateway client that could call it could take (and answer) those deliveries: relays are never served.
 */
export function relayServerIds(deps: {
  serverIds: () => Iterable<string>;
  relaysInUse: () => Iterable<string>;
  offers: (serverId: string, toolName: string) => boolean;
}): Set<string> {
  const out = new Set(deps.relaysInUse());
  for (const id of deps.serverIds()) {
    if (out.has(id)) continue;
    for (const name of RELAY_TOOL_NAMES) {
      if (deps.offers(id, name)) {
        out.add(id);
        break;
      }
    }
  }
  return out;
}

/** How long one take may wait for deliveries at the relay (ms). */
export const RELAY_WAIT_MS = 15_000;
/** Deliveries asked for per take. */
export const RELAY_TAKE_MAX = 50;
/** Headers carried from the relay to the verifier; any other header is dropped. */
const FORWARDED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-mcp-subscription-id', 'content-type'];
/** Longest base64 body accepted (the delivery limit, encoded). */
const MAX_BODY_B64 = Math.ceil(MAX_WEBHOOK_BODY / 3) * 4;

const EndpointSchema = z.object({ url: z.string().min(1).max(2048) }).passthrough();
const DeliverySchema = z
  .object({
    id: z.string().min(1).max(200),
    headers: z.record(z.string().max(100), z.string().max(4096)),
    body: z.string().max(MAX_BODY_B64 + 4),
  })
  .passthrough();
const TakeSchema = z.object({ deliveries: z.array(z.unknown()).max(RELAY_TAKE_MAX * 2) }).passthrough();

/** The structured answer of a relay tool, or why it is not usable. */
async function callRelay(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<unknown> {
  const result = await client.callTool({ name, arguments: args }, { timeout: timeoutMs, ...(signal ? { signal } : {}) });
  if (result.isError === true) {
    const first = Array.isArray(result.content) ? result.content[0] : undefined;
    const text = first !== undefined && first.type === 'text' ? label(first.text, 200) : 'no details';
    throw new Error(`the relay's ${name} reported an error: ${text}`);
  }
  if (result.structuredContent === undefined) throw new Error(`the relay's ${name} returned no structured content`);
  return result.structuredContent;
}

/** Asks a relay for the callback URL of `key` (checked by the caller like any URL the person types). */
export async function relayEndpoint(client: Client, timeoutMs: number, key: string): Promise<string> {
  const parsed = EndpointSchema.safeParse(await callRelay(client, RELAY_TOOLS.endpoint, { key }, timeoutMs));
  if (!parsed.success) throw new Error(`the relay's ${RELAY_TOOLS.endpoint} did not return a url`);
  return parsed.data.url;
}

/** One delivery as the relay handed it, made safe for the verifier; or why it was dropped. */
export function relayDelivery(raw: unknown): { id: string; delivery: WebhookDelivery } | { id?: string; refused: string } {
  const parsed = DeliverySchema.safeParse(raw);
  if (!parsed.success) {
    const id = typeof (raw as { id?: unknown } | null)?.id === 'string' ? label((raw as { id: string }).id, 200) : undefined;
    return { ...(id !== undefined ? { id } : {}), refused: 'not a delivery (id, headers, base64 body)' };
  }
  const { id, headers, body } = parsed.data;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 !== 0) return { id, refused: 'the body is not base64' };
  const bytes = Buffer.from(body, 'base64');
  if (bytes.length > MAX_WEBHOOK_BODY) return { id, refused: 'the body is too large' };
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    if (FORWARDED_HEADERS.includes(name)) kept[name] = v;
  }
  return { id, delivery: { headers: kept, body: bytes } };
}

/** What the readers use from around them. */
export interface RelayReaderDeps {
  /** Connects a server as any automatic use would; rejects with why it is not available. */
  connect(serverId: string): Promise<Client>;
  /** Verifies and stores one delivery; the reply goes back to the sender through the relay. */
  ingest(delivery: WebhookDelivery): Promise<WebhookReply>;
  /** A line in the relay server's log. */
  log(serverId: string, level: 'info' | 'warning', text: string): void;
  /** Why the relay cannot be read now, or undefined once it can again (shown on its subscriptions). */
  problem(relayId: string, reason: string | undefined): void;
  /** Backoff after a failed take (ms): first and longest. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Bound on an answer call (ms). */
  requestTimeoutMs: number;
}

/** One loop per relay server in use: take deliveries, hand each to the verifier, answer it. */
export class RelayReaders {
  readonly #deps: RelayReaderDeps;
  readonly #loops = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(deps: RelayReaderDeps) {
    this.#deps = deps;
  }

  /** Relay servers being read. */
  active(): string[] {
    return [...this.#loops.keys()];
  }

  /** Reads exactly the relays in `ids`: starts the missing loops, stops the others. */
  async sync(ids: ReadonlySet<string>): Promise<void> {
    for (const id of ids) if (!this.#loops.has(id)) this.#start(id);
    await Promise.all([...this.#loops.keys()].filter((id) => !ids.has(id)).map((id) => this.#stop(id)));
  }

  /** Stops every loop. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#loops.keys()].map((id) => this.#stop(id)));
  }

  #start(relayId: string): void {
    const abort = new AbortController();
    const done = this.#run(relayId, abort.signal).catch((err: unknown) => {
      this.#deps.log(relayId, 'warning', `Webhook relay: the reader stopped: ${err instanceof Error ? label(err.message, 300) : 'error'}`);
    });
    this.#loops.set(relayId, { abort, done });
  }

  async #stop(relayId: string): Promise<void> {
    const loop = this.#loops.get(relayId);
    if (!loop) return;
    this.#loops.delete(relayId);
    loop.abort.abort();
    await loop.done;
  }

  async #run(relayId: string, signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      let taken: unknown[];
      let client: Client;
      try {
        client = await this.#deps.connect(relayId);
        const answer = TakeSchema.safeParse(
          await callRelay(client, RELAY_TOOLS.take, { waitMs: RELAY_WAIT_MS, max: RELAY_TAKE_MAX }, RELAY_WAIT_MS + 15_000, signal),
        );
        if (!answer.success) throw new Error(`the relay's ${RELAY_TOOLS.take} did not return a deliveries list`);
        taken = answer.data.deliveries.slice(0, RELAY_TAKE_MAX);
      } catch (err) {
        if (signal.aborted) return;
        failures++;
        this.#deps.problem(relayId, err instanceof Error ? label(err.message, 300) : 'error');
        // The first failure of a run of them is logged; the rest only wait longer.
        if (failures === 1)
          this.#deps.log(
            relayId,
            'warning',
            `Webhook relay: deliveries could not be read (${err instanceof Error ? label(err.message, 300) : 'error'}); trying again`,
          );
        const wait = Math.min(this.#deps.retryMaxMs, this.#deps.retryBaseMs * 2 ** Math.min(failures - 1, 16));
        await sleep(wait, signal);
        continue;
      }
      if (failures > 0) {
        this.#deps.log(relayId, 'info', 'Webhook relay: reading deliveries again');
        this.#deps.problem(relayId, undefined);
      }
      failures = 0;
      for (const raw of taken) {
        if (signal.aborted) return;
        await this.#handle(relayId, client, raw);
      }
    }
  }

  async #handle(relayId: string, client: Client, raw: unknown): Promise<void> {
    const one = relayDelivery(raw);
    let reply: WebhookReply;
    if ('refused' in one) {
      this.#deps.log(relayId, 'warning', `Webhook relay: a delivery was refused: ${one.refused}`);
      if (one.id === undefined) return;
      reply = { status: 400, reason: one.refused };
    } else {
      reply = await this.#deps.ingest(one.delivery).catch((err: unknown) => ({
        status: 500,
        reason: err instanceof Error ? label(err.message, 200) : 'error',
      }));
      if (reply.status >= 400 && reply.status !== 410)
        this.#deps.log(relayId, 'warning', `Webhook relay: a delivery was answered ${reply.status}: ${reply.reason ?? ''}`);
    }
    try {
      await callRelay(
        client,
        RELAY_TOOLS.answer,
        { id: one.id, status: reply.status, ...(reply.body !== undefined ? { body: reply.body } : {}) },
        this.#deps.requestTimeoutMs,
      );
    } catch (err) {
      // The relay answers the sender itself when no answer comes; the server retries then.
      this.#deps.log(
        relayId,
        'warning',
        `Webhook relay: the answer was not taken (${err instanceof Error ? label(err.message, 200) : 'error'})`,
      );
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
