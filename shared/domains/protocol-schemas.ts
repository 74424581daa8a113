// Argument validators and event names for the protocol domain.
import type { ProtocolEventMap, ProtocolInvokeMap } from './protocol.js';
import type { z } from 'zod';

/** Validators for the protocol domain's arguments. */
export const protocolArgSchemas = {} satisfies Record<keyof ProtocolInvokeMap, z.ZodType>;

/** Event names of the protocol domain. */
export const protocolEventKeys = {} satisfies Record<keyof ProtocolEventMap, true>;
