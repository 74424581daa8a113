// Argument validators and event names for the events domain.
import type { EventsEventMap, EventsInvokeMap } from './events.js';
import type { z } from 'zod';

/** Validators for the events domain's arguments. */
export const eventsArgSchemas = {} satisfies Record<keyof EventsInvokeMap, z.ZodType>;

/** Event names of the events domain. */
export const eventsEventKeys = {} satisfies Record<keyof EventsEventMap, true>;
