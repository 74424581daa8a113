// Local tool names: `mcp__<server>__<tool>`, every segment lowercased and normalized to [a-z0-9_], at most 64
// characters; an over-long or colliding name gets a short hash suffix. Identities, once assigned, are kept for the
// life of the server's registration (seed 000 "Tool Naming").
import { createHash } from 'node:crypto';

/** Longest local name. */
export const MAX_LOCAL_NAME = 64;
const HASH_LEN = 8;

/** Lowercases and maps a segment to [a-z0-9_], collapsing runs of `_`; never empty. */
export function normalizeSegment(raw: string): string {
  if (/^[a-z0-9]+(?:_[a-z0-9]+)*$/.test(raw)) return raw; // already normal: the common case
  const ascii = /^[\x00-\x7f]*$/.test(raw);
  const folded = (ascii ? raw : raw.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')).toLowerCase();
  const mapped = folded
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
  return mapped.length > 0 ? mapped : 'tool';
}

/** The unsuffixed local name of a tool. */
export function baseLocalName(serverId: string, toolName: string): string {
  return `mcp__${normalizeSegment(serverId)}__${normalizeSegment(toolName)}`;
}

function hashOf(serverId: string, toolName: string, salt: number): string {
  return createHash('sha256').update(`${serverId}\u0000${toolName}\u0000${salt}`).digest('hex').slice(0, HASH_LEN);
}

/** The suffixed form of a name: the base cut so that `base_<hash>` fits in 64 characters. */
export function hashedLocalName(serverId: string, toolName: string, salt = 0): string {
  const base = baseLocalName(serverId, toolName);
  const room = MAX_LOCAL_NAME - HASH_LEN - 1;
  return `${base.slice(0, room).replace(/_+$/, '')}_${hashOf(serverId, toolName, salt)}`;
}

/**
 * Assigns local names to one server's listing.
 *
 * - `retained`: identities assigned earlier in this registration (original → local); they never change.
 * - `takenElsewhere`: local names owned by other servers (already published, decided in server-id order).
 * New tools whose base name is over-long, collides with another new tool, with a retained identity or with another
 * server's name are hashed; all new tools sharing a base are hashed together, so list order never decides.
 * Returns the complete map (retained plus new) for the listed originals, and the new identities.
 */
export function assignLocalNames(
  serverId: string,
  originals: readonly string[],
  retained: ReadonlyMap<string, string>,
  takenElsewhere: (name: string) => boolean,
): { names: Map<string, string>; added: Map<string, string> } {
  const names = new Map<string, string>();
  const used = new Set<string>(retained.values());
  const fresh: string[] = [];
  for (const original of originals) {
    const kept = retained.get(original);
    if (kept !== undefined) names.set(original, kept);
    else fresh.push(original);
  }
  const byBase = new Map<string, string[]>();
  for (const original of fresh) {
    const base = baseLocalName(serverId, original);
    const list = byBase.get(base);
    if (list) list.push(original);
    else byBase.set(base, [original]);
  }
  const added = new Map<string, string>();
  const needHash: string[] = [];
  for (const [base, list] of byBase) {
    if (list.length === 1 && base.length <= MAX_LOCAL_NAME && !used.has(base) && !takenElsewhere(base)) {
      const original = list[0]!;
      added.set(original, base);
      used.add(base);
    } else {
      needHash.push(...list);
    }
  }
  // Sorted so that a (vanishingly rare) clash between two hashes resolves the same way whatever the list order.
  needHash.sort();
  for (const original of needHash) {
    let salt = 0;
    let name = hashedLocalName(serverId, original, salt);
    while (used.has(name) || takenElsewhere(name)) name = hashedLocalName(serverId, original, ++salt);
    added.set(original, name);
    used.add(name);
  }
  for (const [original, name] of added) names.set(original, name);
  return { names, added };
}
