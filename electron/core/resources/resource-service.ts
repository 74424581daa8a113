// Resources, templates, subscriptions, prompts and completion for one host: explicit, per-server operations on
// the shared session, within the server's time and byte budgets. Nothing here fetches a URI a server returns.
import { UriTemplate, type Client, type McpSubscription } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type {
  PromptItem,
  PromptMessageView,
  ResourceItem,
  ResourceReadResult,
  ResourceTemplateItem,
} from '../../../shared/domains/resources.js';
import { AppError } from '../../../shared/errors.js';
import { sanitizeText, truncate } from '../text.js';
import { requestError } from './request-error.js';
import { presentPrompt, presentResource } from './resource-view.js';

/** What the service needs from the host. */
export interface ResourceServiceDeps {
  /** The server's definition (throws not_found). */
  config(id: string): ServerConfig;
  /** The connected client, connecting first when needed. */
  client(id: string): Promise<Client>;
  /** A subscription could not be re-established after a reconnect (it is forgotten; the person must hear of it). */
  lost?(id: string, uri: string, reason: string): void;
}

/** Where to read a resource from: a URI, or a template with its variables. */
export type ReadTarget = { uri: string } | { uriTemplate: string; variables: Record<string, string> };

const MAX_COMPLETIONS = 100;

function text(v: string | undefined, max: number): string | undefined {
  return v === undefined ? undefined : truncate(sanitizeText(v), max);
}

function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The resources/prompts/completion operations. */
export class ResourceService {
  readonly #deps: ResourceServiceDeps;
  /** Subscribed URIs per server (re-established when a session reconnects). */
  readonly #subs = new Map<string, Set<string>>();
  /** 2026-07-28 listen() subscriptions per server. */
  readonly #listens = new Map<string, McpSubscription>();

  constructor(deps: ResourceServiceDeps) {
    this.#deps = deps;
  }

  /** One page of resources (pass the previous page's cursor for the next). */
  async list(id: string, cursor?: string): Promise<{ resources: ResourceItem[]; nextCursor?: string }> {
    const { config, client } = await this.#open(id, true);
    const result = await this.#call(config, 'listing resources', config.timeouts.listSecs, (timeout) =>
      client.request({ method: 'resources/list', params: cursor !== undefined ? { cursor } : {} }, { timeout }),
    );
    const l = config.limits;
    const resources = result.resources.slice(0, l.catalogItems).map((r): ResourceItem => ({
      uri: truncate(sanitizeText(r.uri), 8192),
      name: truncate(sanitizeText(r.name), l.titleBytes),
      ...opt('title', text(r.title, l.titleBytes)),
      ...opt('description', text(r.description, l.descriptionBytes)),
      ...opt('mimeType', text(r.mimeType, 200)),
      ...opt('size', typeof r.size === 'number' ? r.size : undefined),
    }));
    const next = result.nextCursor;
    if (next !== undefined && (next === cursor || next.length > l.cursorBytes)) {
      throw new AppError('limit_exceeded', 'The server returned a repeated or oversized cursor; paging stopped', { serverId: id });
    }
    return { resources, ...opt('nextCursor', next) };
  }

  /** The server's resource templates with their variable names. */
  async templates(id: string): Promise<{ templates: ResourceTemplateItem[] }> {
    const { config, client } = await this.#open(id, true);
    const result = await this.#call(config, 'listing resource templates', config.timeouts.listSecs, (timeout) =>
      client.listResourceTemplates(undefined, { timeout }),
    );
    const l = config.limits;
    const templates = result.resourceTemplates.slice(0, l.catalogItems).map((t): ResourceTemplateItem => {
      let variables: string[] = [];
      try {
        variables = new UriTemplate(t.uriTemplate).variableNames;
      } catch {
        variables = [];
      }
      return {
        uriTemplate: truncate(sanitizeText(t.uriTemplate), 8192),
        name: truncate(sanitizeText(t.name), l.titleBytes),
        ...opt('title', text(t.title, l.titleBytes)),
        ...opt('description', text(t.description, l.descriptionBytes)),
        ...opt('mimeType', text(t.mimeType, 200)),
        variables,
      };
    });
    return { templates };
  }

  /** Reads a resource (or a template expanded with RFC 6570), bounded by limits.resourceBytes. */
  async read(id: string, target: ReadTarget): Promise<ResourceReadResult> {
    const uri = 'uri' in target ? target.uri : expand(target.uriTemplate, target.variables, id);
    const { config, client } = await this.#open(id, true);
    const result = await this.#call(config, 'reading the resource', config.timeouts.requestSecs, (timeout) =>
      client.readResource({ uri }, { timeout }),
    );
    return {
      uri,
      parts: presentResource(result, { resourceBytes: config.limits.resourceBytes, mediaBytes: config.limits.mediaBytes }, id),
    };
  }

  /** Subscribes to one resource: resources/subscribe (2025) or a listen() resource subscription (2026-07-28). */
  async subscribe(id: string, uri: string): Promise<void> {
    const { config, client } = await this.#open(id, true);
    const set = this.#subs.get(id) ?? new Set<string>();
    if (client.getProtocolEra() === 'modern') {
      set.add(uri);
      this.#subs.set(id, set);
      await this.#relisten(config, client, set);
      return;
    }
    if (!client.getServerCapabilities()?.resources?.subscribe) {
      throw new AppError('invalid_request', `${config.name} does not offer resource subscriptions`, { serverId: id });
    }
    await this.#call(config, 'subscribing', config.timeouts.requestSecs, (timeout) => client.subscribeResource({ uri }, { timeout }));
    set.add(uri);
    this.#subs.set(id, set);
  }

  /** Ends a subscription. */
  async unsubscribe(id: string, uri: string): Promise<void> {
    const set = this.#subs.get(id);
    if (!set?.delete(uri)) return;
    const { config, client } = await this.#open(id, true);
    if (client.getProtocolEra() === 'modern') {
      await this.#relisten(config, client, set);
      return;
    }
    await this.#call(config, 'unsubscribing', config.timeouts.requestSecs, (timeout) => client.unsubscribeResource({ uri }, { timeout }));
  }

  /** URIs currently subscribed on a server. */
  subscriptions(id: string): string[] {
    return [...(this.#subs.get(id) ?? [])];
  }

  /** A session (re)connected: re-establish its subscriptions on the new client; each one that fails is reported lost. */
  async resubscribe(id: string, client: Client): Promise<void> {
    const set = this.#subs.get(id);
    if (!set || set.size === 0) return;
    void this.#listens.get(id)?.close();
    this.#listens.delete(id);
    let config: ServerConfig;
    try {
      config = this.#deps.config(id);
    } catch {
      return;
    }
    const lose = (uris: string[], err: unknown): void => {
      const reason = err instanceof Error ? truncate(sanitizeText(err.message), 300) : 'unknown error';
      for (const uri of uris) {
        set.delete(uri);
        this.#deps.lost?.(id, uri, reason);
      }
    };
    if (client.getProtocolEra() === 'modern') {
      await this.#relisten(config, client, set).catch((err: unknown) => lose([...set], err));
      return;
    }
    for (const uri of [...set])
      await client.subscribeResource({ uri }, { timeout: config.timeouts.requestSecs * 1000 }).catch((err: unknown) => lose([uri], err));
  }

  /** Forgets a removed server's subscriptions. */
  forget(id: string): void {
    this.#subs.delete(id);
    void this.#listens.get(id)?.close();
    this.#listens.delete(id);
  }

  /** The server's prompts. */
  async prompts(id: string): Promise<{ prompts: PromptItem[] }> {
    const { config, client } = await this.#open(id, false);
    const result = await this.#call(config, 'listing prompts', config.timeouts.listSecs, (timeout) =>
      client.listPrompts(undefined, { timeout }),
    );
    const l = config.limits;
    const prompts = result.prompts.slice(0, l.catalogItems).map((p): PromptItem => ({
      name: truncate(sanitizeText(p.name), 512),
      ...opt('title', text(p.title, l.titleBytes)),
      ...opt('description', text(p.description, l.descriptionBytes)),
      arguments: (p.arguments ?? []).slice(0, 100).map((a) => ({
        name: truncate(sanitizeText(a.name), 512),
        ...opt('description', text(a.description, l.descriptionBytes)),
        required: a.required === true,
      })),
    }));
    return { prompts };
  }

  /** Renders a prompt with arguments. */
  async prompt(id: string, name: string, args: Record<string, string>): Promise<{ description?: string; messages: PromptMessageView[] }> {
    const { config, client } = await this.#open(id, false);
    const result = await this.#call(config, 'getting the prompt', config.timeouts.requestSecs, (timeout) =>
      client.getPrompt({ name, arguments: args }, { timeout }),
    );
    return presentPrompt(result, { resourceBytes: config.limits.resourceBytes, mediaBytes: config.limits.mediaBytes });
  }

  /** Completion suggestions for a prompt argument or a template variable; none when the server offers none. */
  async complete(
    id: string,
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<{ values: string[]; hasMore: boolean }> {
    const { config, client } = await this.#open(id, ref.type === 'ref/resource');
    if (!client.getServerCapabilities()?.completions) return { values: [], hasMore: false };
    const result = await this.#call(config, 'completion', config.timeouts.requestSecs, (timeout) =>
      client.complete({ ref, argument, ...(context ? { context: { arguments: context } } : {}) }, { timeout }),
    );
    const values = result.completion.values.slice(0, MAX_COMPLETIONS).map((v) => truncate(sanitizeText(v), 1024));
    return { values, hasMore: result.completion.hasMore === true || result.completion.values.length > MAX_COMPLETIONS };
  }

  async #relisten(config: ServerConfig, client: Client, uris: Set<string>): Promise<void> {
    const previous = this.#listens.get(config.id);
    this.#listens.delete(config.id);
    await previous?.close().catch(() => undefined);
    if (uris.size === 0) return;
    const sub = await this.#call(config, 'subscribing', config.timeouts.requestSecs, (timeout) =>
      client.listen({ resourceSubscriptions: [...uris] }, { timeout }),
    );
    this.#listens.set(config.id, sub);
  }

  async #open(id: string, resources: boolean): Promise<{ config: ServerConfig; client: Client }> {
    const config = this.#deps.config(id);
    if (resources && !config.resources) {
      throw new AppError('invalid_request', `Resources are turned off for ${config.name} (turn them on in its settings)`, { serverId: id });
    }
    return { config, client: await this.#deps.client(id) };
  }

  async #call<T>(config: ServerConfig, what: string, secs: number, run: (timeoutMs: number) => Promise<T>): Promise<T> {
    try {
      return await run(secs * 1000);
    } catch (err) {
      throw requestError(err, config.id, what, secs);
    }
  }
}

/** Expands an RFC 6570 template with the SDK's UriTemplate. */
export function expand(uriTemplate: string, variables: Record<string, string>, serverId?: string): string {
  try {
    return new UriTemplate(uriTemplate).expand(variables);
  } catch (err) {
    throw new AppError(
      'invalid_request',
      `The template could not be expanded: ${err instanceof Error ? err.message : 'invalid template'}`,
      {
        ...(serverId !== undefined ? { serverId } : {}),
      },
    );
  }
}
