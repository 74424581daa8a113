// Where the gateway endpoint file lives, and its removal: apart from endpoint-file.ts (which validates the file's
// content with zod) so a process that only cleans up, such as the headless launcher, never loads zod to start.
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The endpoint file's name in the data folder. */
export const ENDPOINT_FILE = 'gateway-endpoint.json';

/** The endpoint file's path in a data folder. */
export function endpointPath(dataDir: string): string {
  return join(dataDir, ENDPOINT_FILE);
}

/** Removes the endpoint file (a missing file is fine). */
export async function removeEndpoint(dataDir: string): Promise<void> {
  await rm(endpointPath(dataDir), { force: true });
}

/** The synchronous twin of removeEndpoint, for process exit. */
export function removeEndpointSync(dataDir: string): void {
  rmSync(endpointPath(dataDir), { force: true });
}
