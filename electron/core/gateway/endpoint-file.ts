// The file through which the stdio entry point finds the running gateway: port, URL, the process id and the
// per-launch key its tokens derive from, plus client names → ids. Written atomically (mode 0600) while the gateway
// runs, rewritten when clients change, removed when it stops. Nothing else (no client token, no upstream secret)
// is ever in it.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeJsonAtomic } from '../storage/json-file.js';
import { endpointPath } from './endpoint-path.js';

export { ENDPOINT_FILE, endpointPath, removeEndpoint, removeEndpointSync } from './endpoint-path.js';

const EndpointSchema = z.object({
  version: z.literal(1),
  url: z.string().regex(/^http:\/\/127\.0\.0\.1:\d{1,5}\/mcp$/),
  port: z.number().int().min(1).max(65535),
  pid: z.number().int().positive(),
  key: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  clients: z.array(z.object({ id: z.string().regex(/^[0-9a-f]{16}$/), name: z.string().max(64) })).max(1000),
});

/** What the endpoint file holds. */
export type Endpoint = z.infer<typeof EndpointSchema>;

/** Writes the endpoint file atomically with mode 0600. */
export async function writeEndpoint(dataDir: string, endpoint: Omit<Endpoint, 'version'>): Promise<void> {
  await writeJsonAtomic(endpointPath(dataDir), { version: 1, ...endpoint });
}

/** Reads the endpoint file without touching it: undefined when missing; throws with a plain message when unreadable. */
export function readEndpoint(dataDir: string): Endpoint | undefined {
  let text: string;
  try {
    text = readFileSync(endpointPath(dataDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`The gateway endpoint file could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error('The gateway endpoint file is not valid JSON.');
  }
  const parsed = EndpointSchema.safeParse(raw);
  if (!parsed.success) throw new Error('The gateway endpoint file does not have the expected content.');
  return parsed.data;
}
