// Argument validators and event names for the apps domain.
import type { AppsEventMap, AppsInvokeMap } from './apps.js';
import type { z } from 'zod';

/** Validators for the apps domain's arguments. */
export const appsArgSchemas = {} satisfies Record<keyof AppsInvokeMap, z.ZodType>;

/** Event names of the apps domain. */
export const appsEventKeys = {} satisfies Record<keyof AppsEventMap, true>;
