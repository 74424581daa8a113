// Runtime side of the contract, assembled from the domains: one argument validator per InvokeMap key and the list of
// event names. The `satisfies` clauses make a key missing here, or an extra one, a compile error, and a validator
// whose output is not its method's argument type a compile error too.
import type { z } from 'zod';
import type { EventKey, InvokeArgs, InvokeKey } from './contract.js';
import { appArgSchemas, appEventKeys } from './domains/app.js';
import { appsArgSchemas, appsEventKeys } from './domains/apps.js';
import { authArgSchemas } from './domains/auth.js';
import { callArgSchemas } from './domains/calls.js';
import { catalogArgSchemas } from './domains/catalog.js';
import { eventsArgSchemas, eventsEventKeys } from './domains/events.js';
import { gatewayArgSchemas, gatewayEventKeys } from './domains/gateway.js';
import { protocolArgSchemas, protocolEventKeys } from './domains/protocol.js';
import { registryArgSchemas, registryEventKeys } from './domains/registry.js';
import { resourceArgSchemas } from './domains/resources.js';
import { serversArgSchemas } from './domains/servers.js';
import { skillsArgSchemas } from './domains/skills.js';

/**
 * What each method's validator must produce: its argument type, with one intended exception. `servers.test` takes an
 * unchecked definition on purpose (the doctor checks it itself, so a refused URL becomes the walk's failing first
 * step rather than an invalid_request), so its `config` is any record here; the doctor validates it before use.
 */
export type ValidatedArgs<K extends InvokeKey> = K extends 'servers.test'
  ? Omit<InvokeArgs<K>, 'config'> & { config?: Record<string, unknown> }
  : InvokeArgs<K>;

/**
 * A type as a validator produces it: zod's `.optional()` parses to `field?: T | undefined`, so with
 * exactOptionalPropertyTypes an optional field must also accept `undefined` here. Required fields stay required, so
 * a validator that loosens one still fails the check.
 */
export type AsParsed<T> = T extends readonly (infer U)[]
  ? AsParsed<U>[]
  : T extends object
    ? { [K in keyof T as object extends Pick<T, K> ? K : never]?: AsParsed<T[K]> | undefined } & {
        [K in keyof T as object extends Pick<T, K> ? never : K]: AsParsed<T[K]>;
      }
    : T;

/** A validator per method whose parsed output has that method's argument shape (input is untrusted, so unknown). */
export type ArgSchemas = { [K in InvokeKey]: z.ZodType<AsParsed<ValidatedArgs<K>>, unknown> };

/** Argument validators, one per contract method; run before any handler. */
export const invokeArgSchemas = {
  ...appArgSchemas,
  ...serversArgSchemas,
  ...catalogArgSchemas,
  ...callArgSchemas,
  ...authArgSchemas,
  ...resourceArgSchemas,
  ...eventsArgSchemas,
  ...gatewayArgSchemas,
  ...appsArgSchemas,
  ...registryArgSchemas,
  ...protocolArgSchemas,
  ...skillsArgSchemas,
} satisfies ArgSchemas;

/** Every contract method name, in declaration order. */
export const INVOKE_KEYS = Object.keys(invokeArgSchemas) as InvokeKey[];

const eventRecord = {
  'servers.changed': true,
  'servers.status': true,
  'servers.log': true,
  'app.notices': true,
  'catalog.changed': true,
  'call.progress': true,
  'call.finished': true,
  'auth.changed': true,
  'resources.updated': true,
  'resources.listChanged': true,
  'resources.subscriptionLost': true,
  'prompts.listChanged': true,
  'elicitation.requested': true,
  'elicitation.cancelled': true,
  ...appEventKeys,
  ...eventsEventKeys,
  ...gatewayEventKeys,
  ...appsEventKeys,
  ...registryEventKeys,
  ...protocolEventKeys,
} satisfies Record<EventKey, true>;

/** Every contract event name. */
export const EVENT_KEYS = Object.keys(eventRecord) as EventKey[];

/** True when a string is a contract method name. */
export function isInvokeKey(name: string): name is InvokeKey {
  return Object.prototype.hasOwnProperty.call(invokeArgSchemas, name);
}
