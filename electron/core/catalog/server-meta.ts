// Server metadata for a group card (title, description, instructions), cut to the server's metadata budget.
import type { Client } from '@modelcontextprotocol/client';
import { sanitizeText } from '../text.js';
import type { Entry } from './entry.js';

/** UTF-8 byte length of a string (0 when absent). */
export function utf8(s: string | undefined): number {
  return s === undefined ? 0 : Buffer.byteLength(s, 'utf8');
}

/** Captures a server's sanitized title, description and instructions from its client into the entry. */
export function captureMeta(entry: Entry, client: Client): void {
  const info = client.getServerVersion();
  const title = info?.title ? sanitizeText(info.title) : undefined;
  const description = typeof info?.description === 'string' ? sanitizeText(info.description) : undefined;
  const rawInstructions = client.getInstructions();
  let instructions = rawInstructions ? sanitizeText(rawInstructions) : undefined;
  // Combined server metadata budget: cut the instructions (then the description) rather than fail the server.
  const budget = entry.config.limits.serverMetadataBytes;
  let desc = description;
  if (utf8(title) + utf8(desc) + utf8(instructions) > budget) {
    const room = Math.max(0, budget - utf8(title) - utf8(desc));
    instructions = instructions
      ? `${Buffer.from(instructions, 'utf8')
          .subarray(0, room)
          .toString('utf8')
          .replace(/\uFFFD+$/, '')}…`
      : undefined;
    if (utf8(title) + utf8(desc) > budget) desc = desc?.slice(0, Math.max(0, budget - utf8(title)));
  }
  entry.meta = { ...(title ? { title } : {}), ...(desc ? { description: desc } : {}), ...(instructions ? { instructions } : {}) };
}
