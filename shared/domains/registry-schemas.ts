// Argument validators and event names for the registry domain.
import type { RegistryEventMap, RegistryInvokeMap } from './registry.js';
import type { z } from 'zod';

/** Validators for the registry domain's arguments. */
export const registryArgSchemas = {} satisfies Record<keyof RegistryInvokeMap, z.ZodType>;

/** Event names of the registry domain. */
export const registryEventKeys = {} satisfies Record<keyof RegistryEventMap, true>;
