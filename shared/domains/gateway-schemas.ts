// Argument validators and event names for the gateway domain.
import type { GatewayEventMap, GatewayInvokeMap } from './gateway.js';
import type { z } from 'zod';

/** Validators for the gateway domain's arguments. */
export const gatewayArgSchemas = {} satisfies Record<keyof GatewayInvokeMap, z.ZodType>;

/** Event names of the gateway domain. */
export const gatewayEventKeys = {} satisfies Record<keyof GatewayEventMap, true>;
