// Argument validators and event names for the apps domain.
import { z } from 'zod';
import type { AppsEventMap, AppsInvokeMap } from './apps.js';

const id = z.string().min(1).max(200);
const launchId = z.string().min(1).max(100);

/** The browser capabilities an app may be granted. */
export const APP_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

/** Schema for the grants of one server's apps. */
export const AppGrantsSchema = z
  .object({
    permissions: z
      .array(z.enum(APP_PERMISSIONS))
      .max(APP_PERMISSIONS.length)
      .refine((list) => new Set(list).size === list.length, 'Each permission may be listed once'),
    popups: z.boolean(),
  })
  .strict();

/** Validators for the apps domain's arguments. */
export const appsArgSchemas = {
  'apps.open': z.object({ callId: z.string().min(1).max(200) }).strict(),
  'apps.prefetch': z.object({ tool: z.string().min(1).max(512) }).strict(),
  'apps.close': z.object({ launchId }).strict(),
  'apps.callTool': z
    .object({ launchId, name: z.string().min(1).max(512), arguments: z.record(z.string(), z.unknown()).optional() })
    .strict(),
  'apps.readResource': z.object({ launchId, uri: z.string().min(1).max(8192) }).strict(),
  'apps.listResources': z.object({ launchId, cursor: z.string().max(65536).optional() }).strict(),
  'apps.listResourceTemplates': z.object({ launchId }).strict(),
  'apps.checkLink': z.object({ launchId, url: z.string().min(1).max(8192) }).strict(),
  'apps.openLink': z.object({ launchId, url: z.string().min(1).max(8192) }).strict(),
  'apps.openWindow': z.object({ callId: z.string().min(1).max(200) }).strict(),
  'apps.server': z.object({ serverId: id }).strict(),
  'apps.setGrants': z.object({ serverId: id, grants: AppGrantsSchema }).strict(),
} satisfies Record<keyof AppsInvokeMap, z.ZodType>;

/** Event names of the apps domain. */
export const appsEventKeys = { 'apps.grantsChanged': true } satisfies Record<keyof AppsEventMap, true>;
