// What a connected server said about itself, as inert display data.
import type { Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { ServerIdentity } from '../../../shared/contract.js';
import { sanitizeText, truncate } from '../text.js';

/** Longest name, title or version kept. */
const SHORT_TEXT_MAX = 256;

function clean(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = sanitizeText(value).trim();
  return text === '' ? undefined : truncate(text, max);
}

/** Reads the server's name, title, version, description, capabilities and instructions from a connected client. */
export function captureIdentity(client: Client, config: ServerConfig): ServerIdentity {
  const info = client.getServerVersion();
  const metaMax = config.limits.serverMetadataBytes;
  const name = clean(info?.name, SHORT_TEXT_MAX) ?? config.name;
  const title = clean(info?.title, SHORT_TEXT_MAX);
  const version = clean(info?.version, SHORT_TEXT_MAX) ?? 'unknown';
  const description = clean((info as { description?: unknown } | undefined)?.description, config.limits.descriptionBytes);
  const instructions = clean(client.getInstructions(), metaMax);
  const capabilities = Object.keys(client.getServerCapabilities() ?? {})
    .map((k) => truncate(sanitizeText(k), SHORT_TEXT_MAX))
    .sort();
  // Extensions are what decide extra server tabs (Skills); ids only, bounded like capability names.
  const ext = (client.getServerCapabilities() as { extensions?: unknown } | undefined)?.extensions;
  const extensions =
    ext !== null && typeof ext === 'object'
      ? Object.keys(ext)
          .slice(0, 64)
          .map((k) => truncate(sanitizeText(k), SHORT_TEXT_MAX))
          .sort()
      : [];
  return {
    name,
    version,
    capabilities,
    ...(extensions.length > 0 ? { extensions } : {}),
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(instructions !== undefined ? { instructions } : {}),
  };
}
