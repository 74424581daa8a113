// Prompts, resources and completion for gateway clients: aggregated over the connected servers the profile sees
// (nothing is connected just to list), under prefixed prompt names and wrapped resource URIs, within each
// server's time and byte budgets. Server text is sanitized; results over the server's resource budget are refused.
// Resource subscriptions of 2025-11-25 sessions are forwarded to the server once per URI, counted per gateway
// subscriber so the UI's own subscriptions are never taken away.
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { ServerConfig } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import { isObject, type JsonObject } from '../json.js';
import { requestError } from '../resources/request-error.js';
import { sanitizeText, truncate } from '../text.js';
import { promptCandidates, promptName, unwrapUri, wrapUri } from './namespacing.js';
import type { ProfileView } from './profile.js';
import { asClientRequests, checkResponses, firstResponses, relayable, type RoundContext } from './gateway-calls.js';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { InputRequest } from '@modelcontextprotocol/server';

/** What forwarding uses from the host. */
export interface ForwardingDeps {
  config(serverId: string): ServerConfig;
  /** Whether the server's session is up now (listing never connects one). */
  connected(serverId: string): boolean;
  /** The live client (connecting when needed). */
  client(serverId: string): Promise<Client>;
  /** Subscribes/unsubscribes a resource through the host's resource service (shared with the UI). */
  subscribe(serverId: string, uri: string): Promise<void>;
  unsubscribe(serverId: string, uri: string): Promise<void>;
  /** URIs the host is subscribed to for a server (the UI's and ours). */
  subscriptions(serverId: string): string[];
}

/** The client side of a prompts/get that may come in rounds (2026-07-28 input_required). */
export type PromptRound = Pick<RoundContext, 'elicitation' | 'sampling' | 'roots' | 'requestState' | 'inputResponses'> & {
  clientId: string;
};

/** A prompt round waiting for the client's answers: the server's own requestState stays here. */
interface PromptWait {
  clientId: string;
  serverId: string;
  name: string;
  args: Record<string, string> | undefined;
  upstreamState: string | undefined;
  requests: Record<string, InputRequest>;
  expiresAt: number;
}

/** Prompt rounds waiting at once (the oldest is dropped beyond this). */
const MAX_PROMPT_WAITS = 256;
const AnyResult = z.looseObject({});

/** Items listed per server and kind. */
const MAX_ITEMS = 2000;
const MAX_COMPLETIONS = 100;

const clean = (v: unknown, max: number): string | undefined => (typeof v === 'string' ? truncate(sanitizeText(v), max) : undefined);
const opt = <K extends string>(key: K, v: unknown): Partial<Record<K, unknown>> =>
  v === undefined ? {} : ({ [key]: v } as Record<K, unknown>);

function invalid(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

/** The resource-not-found error for the URI a gateway client asked for (bounded: the URI is the client's own text). */
function notFound(uri: string, what: string): ResourceNotFoundError {
  return new ResourceNotFoundError(uri.length > 16_384 ? uri.slice(0, 16_384) : uri, `${what}: ${truncate(sanitizeText(uri), 300)}`);
}

/**
 * Whether an upstream error is resource-not-found: the SDK's class, or (from servers built on other SDKs) -32002,
 * or -32602 whose data is exactly `{ uri }`, as the spec defines it.
 */
function isResourceMiss(err: unknown): boolean {
  if (err instanceof ResourceNotFoundError) return true;
  if (!(err instanceof ProtocolError)) return false;
  if (err.code === -32002) return true;
  const data: unknown = err.data;
  return err.code === ProtocolErrorCode.InvalidParams && isObject(data) && typeof data.uri === 'string' && Object.keys(data).length === 1;
}

/** Throws when a result is over the server's resource budget. */
function bounded<T>(value: T, config: ServerConfig, what: string): T {
  let size: number;
  try {
    size = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  } catch {
    throw new AppError('server_error', `${what} could not be read`, { serverId: config.id });
  }
  if (size > config.limits.resourceBytes)
    throw new AppError('limit_exceeded', `${what} is ${size} bytes, over the ${config.limits.resourceBytes}-byte budget`, {
      serverId: config.id,
    });
  return value;
}

/** Text fields of content blocks sanitized (prompt messages, resource contents). */
function cleanContent(block: unknown): unknown {
  if (!isObject(block)) return block;
  if (block.type === 'text' && typeof block.text === 'string') return { ...block, text: sanitizeText(block.text) };
  return block;
}

/** Forwards prompts, resources and completion for one gateway. */
export class Forwarding {
  readonly #deps: ForwardingDeps;
  /** Gateway subscribers per server and URI; the host subscription is ours when we made it. */
  readonly #subs = new Map<string, { count: number; ours: boolean }>();
  /** Prompt rounds by the single-use token the client holds. */
  readonly #promptWaits = new Map<string, PromptWait>();

  constructor(deps: ForwardingDeps) {
    this.#deps = deps;
  }

  async #servers(view: ProfileView, capability: 'prompts' | 'resources'): Promise<{ config: ServerConfig; client: Client }[]> {
    const out: { config: ServerConfig; client: Client }[] = [];
    for (const id of view.servers()) {
      if (!this.#deps.connected(id)) continue;
      const config = this.#deps.config(id);
      if (capability === 'resources' && !config.resources) continue;
      let client: Client;
      try {
        client = await this.#deps.client(id);
      } catch {
        continue;
      }
      if (client.getServerCapabilities()?.[capability]) out.push({ config, client });
    }
    return out;
  }

  async #open(serverId: string, capability: 'prompts' | 'resources'): Promise<{ config: ServerConfig; client: Client }> {
    const config = this.#deps.config(serverId);
    if (capability === 'resources' && !config.resources) throw invalid('Resources are turned off for this server in Switchboard');
    try {
      return { config, client: await this.#deps.client(serverId) };
    } catch (err) {
      throw requestError(err, serverId, 'connecting', config.timeouts.connectSecs);
    }
  }

  /** prompts/list over every visible connected server. */
  async listPrompts(view: ProfileView): Promise<JsonObject> {
    const prompts: JsonObject[] = [];
    for (const { config, client } of await this.#servers(view, 'prompts')) {
      let listed: Awaited<ReturnType<Client['listPrompts']>>;
      try {
        listed = await client.listPrompts(undefined, { timeout: config.timeouts.listSecs * 1000 });
      } catch {
        continue;
      }
      for (const p of listed.prompts.slice(0, MAX_ITEMS)) {
        prompts.push({
          name: promptName(config.id, p.name, view.original),
          ...opt('title', clean(p.title, config.limits.titleBytes)),
          ...opt('description', clean(p.description, config.limits.descriptionBytes)),
          ...(p.arguments
            ? {
                arguments: p.arguments.slice(0, 100).map((a) => ({
                  name: a.name,
                  ...opt('description', clean(a.description, config.limits.descriptionBytes)),
                  ...(a.required ? { required: true } : {}),
                })),
              }
            : {}),
        });
      }
    }
    return { prompts };
  }

  /** The server and original name of a gateway prompt name; an ambiguous name goes to the server that has it. */
  async #resolvePrompt(view: ProfileView, name: string): Promise<{ serverId: string; name: string }> {
    const candidates = promptCandidates(name, view.servers(), view.original);
    if (candidates.length === 0) throw invalid(`Unknown prompt: ${truncate(sanitizeText(name), 200)}`);
    if (candidates.length === 1) return candidates[0]!;
    for (const c of candidates) {
      try {
        const { config, client } = await this.#open(c.serverId, 'prompts');
        const listed = await client.listPrompts(undefined, { timeout: config.timeouts.listSecs * 1000 });
        if (listed.prompts.some((p) => p.name === c.name)) return c;
      } catch {
        // try the next reading
      }
    }
    return candidates[0]!;
  }

  /**
   * prompts/get of a prefixed prompt. A 2026-07-28 server's input_required rounds go to the client when it can answer
   * every request in them (declared capability, the server's setting on), under the server's keys and with a
   * single-use token of ours as requestState; otherwise Switchboard's own client answers them (its dialogs), as before.
   */
  async getPrompt(view: ProfileView, name: string, args: Record<string, string> | undefined, round?: PromptRound): Promise<JsonObject> {
    let target: { serverId: string; name: string };
    let extra: JsonObject = {};
    if (round?.requestState !== undefined) {
      const wait = this.#promptWaits.get(round.requestState);
      this.#promptWaits.delete(round.requestState);
      if (!wait || wait.clientId !== round.clientId || wait.expiresAt < Date.now())
        throw invalid('requestState does not match a prompt round of this client that is waiting for input. Get the prompt again.');
      target = { serverId: wait.serverId, name: wait.name };
      args = wait.args;
      extra = {
        inputResponses: checkResponses(wait.requests, round.inputResponses) as JsonObject,
        ...(wait.upstreamState !== undefined ? { requestState: wait.upstreamState } : {}),
      };
    } else target = await this.#resolvePrompt(view, name);
    const { config, client } = await this.#open(target.serverId, 'prompts');
    if (round && round.requestState === undefined) {
      const first = firstResponses(round, config).firstResponses;
      if (first) extra = { inputResponses: first };
    }
    const params = { name: target.name, ...(args ? { arguments: args } : {}) };
    let result: Awaited<ReturnType<Client['getPrompt']>>;
    try {
      if (round && client.getProtocolEra() === 'modern') {
        const raw = (await client.request({ method: 'prompts/get', params: { ...params, ...extra } }, AnyResult, {
          timeout: config.timeouts.requestSecs * 1000,
          allowInputRequired: true,
        } as never)) as JsonObject;
        if (raw.resultType === 'input_required') {
          const relayed = this.#relayPromptRound(raw, round, config, target, args);
          if (relayed) return relayed;
          // Not all of it can go to the client: Switchboard's own client answers the rounds, as for the person.
          result = await client.getPrompt(params, { timeout: config.timeouts.requestSecs * 1000 });
        } else result = raw as unknown as typeof result;
      } else result = await client.getPrompt(params, { timeout: config.timeouts.requestSecs * 1000 });
    } catch (err) {
      throw requestError(err, config.id, 'getting the prompt', config.timeouts.requestSecs);
    }
    return bounded(
      {
        ...opt('description', clean(result.description, config.limits.descriptionBytes)),
        messages: (Array.isArray(result.messages) ? result.messages : []).map((m) => ({ role: m.role, content: cleanContent(m.content) })),
      },
      config,
      'The prompt',
    );
  }

  /** The round for the client, when every request in it is one the client may answer; undefined otherwise. */
  #relayPromptRound(
    raw: JsonObject,
    round: PromptRound,
    config: ServerConfig,
    target: { serverId: string; name: string },
    args: Record<string, string> | undefined,
  ): JsonObject | undefined {
    const requests = isObject(raw.inputRequests) ? raw.inputRequests : {};
    const entries = Object.entries(requests);
    const allowed = (m: string): boolean =>
      (m === 'elicitation/create' && config.elicitation) ||
      (m === 'sampling/createMessage' && config.sampling) ||
      (m === 'roots/list' && config.roots);
    const all = entries.every(([, r]) => {
      const method = isObject(r) && typeof r.method === 'string' ? r.method : '';
      return allowed(method) && relayable(round, method, isObject(r) && isObject(r.params) ? r.params : {});
    });
    if (entries.length === 0 || !all) return undefined;
    const token = randomBytes(18).toString('base64url');
    const asked = asClientRequests(requests);
    while (this.#promptWaits.size >= MAX_PROMPT_WAITS) this.#promptWaits.delete(this.#promptWaits.keys().next().value!);
    this.#promptWaits.set(token, {
      clientId: round.clientId,
      serverId: target.serverId,
      name: target.name,
      args,
      upstreamState: typeof raw.requestState === 'string' ? raw.requestState : undefined,
      requests: asked,
      expiresAt: Date.now() + config.timeouts.elicitationSecs * 1000,
    });
    return { resultType: 'input_required', inputRequests: asked, requestState: token };
  }

  /** resources/list over every visible connected server (first page of each). */
  async listResources(view: ProfileView): Promise<JsonObject> {
    const resources: JsonObject[] = [];
    for (const { config, client } of await this.#servers(view, 'resources')) {
      let listed: Awaited<ReturnType<Client['listResources']>>;
      try {
        listed = await client.listResources(undefined, { timeout: config.timeouts.listSecs * 1000 });
      } catch {
        continue;
      }
      for (const r of listed.resources.slice(0, MAX_ITEMS)) {
        resources.push({
          uri: wrapUri(config.id, r.uri, view.original),
          name: truncate(sanitizeText(r.name), config.limits.titleBytes),
          ...opt('title', clean(r.title, config.limits.titleBytes)),
          ...opt('description', clean(r.description, config.limits.descriptionBytes)),
          ...opt('mimeType', clean(r.mimeType, 200)),
          ...opt('size', typeof r.size === 'number' ? r.size : undefined),
        });
      }
    }
    return { resources };
  }

  /** resources/templates/list over every visible connected server. */
  async listTemplates(view: ProfileView): Promise<JsonObject> {
    const resourceTemplates: JsonObject[] = [];
    for (const { config, client } of await this.#servers(view, 'resources')) {
      let listed: Awaited<ReturnType<Client['listResourceTemplates']>>;
      try {
        listed = await client.listResourceTemplates(undefined, { timeout: config.timeouts.listSecs * 1000 });
      } catch {
        continue;
      }
      for (const t of listed.resourceTemplates.slice(0, MAX_ITEMS)) {
        resourceTemplates.push({
          uriTemplate: wrapUri(config.id, t.uriTemplate, view.original),
          name: truncate(sanitizeText(t.name), config.limits.titleBytes),
          ...opt('title', clean(t.title, config.limits.titleBytes)),
          ...opt('description', clean(t.description, config.limits.descriptionBytes)),
          ...opt('mimeType', clean(t.mimeType, 200)),
        });
      }
    }
    return { resourceTemplates };
  }

  /**
   * resources/read of a wrapped URI. A miss (no server in the profile has it, or the server says it has no such
   * resource) is the spec's resource-not-found error: -32602 with `data.uri` the URI the client asked for, so the
   * client learns nothing about the upstream's own URI and can tell a miss from other invalid params.
   */
  async readResource(view: ProfileView, uri: string): Promise<JsonObject> {
    const target = unwrapUri(uri, view.servers(), view.original);
    // A server outside the profile is as unknown as one that does not exist.
    if (!target) throw notFound(uri, 'Unknown resource');
    const { config, client } = await this.#open(target.serverId, 'resources');
    let result: Awaited<ReturnType<Client['readResource']>>;
    try {
      result = await client.readResource({ uri: target.uri }, { timeout: config.timeouts.requestSecs * 1000 });
    } catch (err) {
      if (isResourceMiss(err)) throw notFound(uri, 'Resource not found');
      throw requestError(err, config.id, 'reading the resource', config.timeouts.requestSecs);
    }
    const contents = result.contents.map((c) => ({
      ...c,
      uri: wrapUri(config.id, c.uri, view.original),
      ...('text' in c && typeof c.text === 'string' ? { text: sanitizeText(c.text) } : {}),
    }));
    return bounded({ contents }, config, 'The resource');
  }

  /** A gateway session subscribes to a wrapped URI; returns the server and original URI. */
  async subscribe(view: ProfileView, uri: string): Promise<{ serverId: string; uri: string }> {
    const target = unwrapUri(uri, view.servers(), view.original);
    if (!target) throw invalid(`Unknown resource: ${truncate(sanitizeText(uri), 300)}`);
    const key = JSON.stringify([target.serverId, target.uri]);
    const entry = this.#subs.get(key);
    if (entry) {
      entry.count++;
      return target;
    }
    const { config, client } = await this.#open(target.serverId, 'resources');
    if (!client.getServerCapabilities()?.resources?.subscribe)
      throw invalid(`${truncate(sanitizeText(config.name), 200)} does not offer resource subscriptions`);
    const already = this.#deps.subscriptions(target.serverId).includes(target.uri);
    if (!already) {
      try {
        await this.#deps.subscribe(target.serverId, target.uri);
      } catch (err) {
        throw err instanceof AppError ? err : requestError(err, target.serverId, 'subscribing', 30);
      }
    }
    this.#subs.set(key, { count: 1, ours: !already });
    return target;
  }

  /** A gateway session (or a closed one) drops a subscription. */
  async unsubscribe(serverId: string, uri: string): Promise<void> {
    const key = JSON.stringify([serverId, uri]);
    const entry = this.#subs.get(key);
    if (!entry) return;
    entry.count--;
    if (entry.count > 0) return;
    this.#subs.delete(key);
    if (entry.ours) await this.#deps.unsubscribe(serverId, uri).catch(() => undefined);
  }

  /** completion/complete for a prefixed prompt or a wrapped resource template. */
  async complete(view: ProfileView, params: JsonObject): Promise<JsonObject> {
    const empty = { completion: { values: [], hasMore: false } };
    const ref = isObject(params.ref) ? params.ref : {};
    const argument = isObject(params.argument) ? params.argument : {};
    if (typeof argument.name !== 'string' || typeof argument.value !== 'string')
      throw invalid('completion needs argument.name and argument.value');
    let serverId: string;
    let upstreamRef: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
      const target = await this.#resolvePrompt(view, ref.name);
      serverId = target.serverId;
      upstreamRef = { type: 'ref/prompt', name: target.name };
    } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
      const target = unwrapUri(ref.uri, view.servers(), view.original);
      if (!target) throw invalid('Unknown resource template');
      serverId = target.serverId;
      upstreamRef = { type: 'ref/resource', uri: target.uri };
    } else throw invalid('Unknown completion reference');
    const { config, client } = await this.#open(serverId, upstreamRef.type === 'ref/prompt' ? 'prompts' : 'resources');
    if (!client.getServerCapabilities()?.completions) return empty;
    const context = isObject(params.context) && isObject(params.context.arguments) ? params.context.arguments : undefined;
    try {
      const result = await client.complete(
        {
          ref: upstreamRef,
          argument: { name: argument.name, value: argument.value },
          ...(context ? { context: { arguments: context as Record<string, string> } } : {}),
        },
        { timeout: config.timeouts.requestSecs * 1000 },
      );
      const values = result.completion.values.slice(0, MAX_COMPLETIONS).map((v) => truncate(sanitizeText(v), 1024));
      return { completion: { values, hasMore: result.completion.hasMore === true || result.completion.values.length > MAX_COMPLETIONS } };
    } catch (err) {
      throw requestError(err, serverId, 'completion', config.timeouts.requestSecs);
    }
  }
}
