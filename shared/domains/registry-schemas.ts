// Argument validators and event names for the registry domain.
import { z } from 'zod';
import { ServerIdSchema } from '../config.js';
import type { RegistryEventMap, RegistryInvokeMap } from './registry.js';

/** Longest pasted server.json, link or config snippet accepted. */
export const MAX_INSTALL_TEXT = 1024 * 1024;

const sourceUrl = z.string().trim().min(1).max(2048);
const entryName = z.string().min(1).max(200);
const version = z.string().min(1).max(255);
const choice = z.number().int().min(0).max(100);
const values = z
  .record(z.string().min(1).max(300), z.string().max(16 * 1024))
  .refine((v) => Object.keys(v).length <= 500, 'At most 500 values');

const byName = { name: entryName, version: version.optional(), source: sourceUrl.optional() };
const byJson = { serverJson: z.string().min(1).max(MAX_INSTALL_TEXT) };
const prepareExtras = { choice: choice.optional(), values: values.optional() };
const installExtras = { ...prepareExtras, id: ServerIdSchema.optional(), displayName: z.string().trim().min(1).max(200).optional() };

/** Validators for the registry domain's arguments. */
export const registryArgSchemas = {
  'registry.sources': z.object({}).strict(),
  'registry.addSource': z.object({ url: sourceUrl }).strict(),
  'registry.removeSource': z.object({ url: sourceUrl }).strict(),
  'registry.search': z
    .object({
      query: z.string().max(200),
      cursor: z.string().min(1).max(4096).optional(),
      source: sourceUrl.optional(),
      limit: z.number().int().min(1).max(100).optional(),
    })
    .strict(),
  'registry.prepare': z.union([z.object({ ...byName, ...prepareExtras }).strict(), z.object({ ...byJson, ...prepareExtras }).strict()]),
  'registry.install': z.union([z.object({ ...byName, ...installExtras }).strict(), z.object({ ...byJson, ...installExtras }).strict()]),
  'registry.updates': z.object({}).strict(),
  'registry.previewUpdate': z.object({ id: ServerIdSchema }).strict(),
  'registry.applyUpdate': z.object({ id: ServerIdSchema, version, values: values.optional() }).strict(),
  'registry.parseInstall': z.object({ text: z.string().min(1).max(MAX_INSTALL_TEXT) }).strict(),
  'registry.takeLinks': z.object({}).strict(),
  'registry.openLink': z.object({ url: z.string().min(1).max(2048) }).strict(),
} satisfies Record<keyof RegistryInvokeMap, z.ZodType>;

/** Event names of the registry domain. */
export const registryEventKeys = {
  'registry.linkReceived': true,
  'registry.sourcesChanged': true,
} satisfies Record<keyof RegistryEventMap, true>;
