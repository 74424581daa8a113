// The e2e suite's `test`: the testers' kit (`switchboard`, `page`, `context`, `bridge`, in whichever shell the
// project runs) plus a `seed` option that saves approved stdio servers into the test's data folder before
// Switchboard starts, so a spec about another view begins with servers that connect at start-up.
import { test as kitTest } from '../../../testing/index';
import { seedServers, type SeedServer } from './seed';

export { AppError, expect } from '../../../testing/index';
export type { Switchboard } from '../../../testing/index';

/** What a spec has saved in the data folder before launch (`test.use({ seed: { servers: [...] } })`). */
export interface Seed {
  /** Stdio servers, saved with their launch approved; a function when a value depends on the data folder. */
  servers?: SeedServer[] | ((dataDir: string) => SeedServer[]);
}

/** The kit's `test` with the `seed` option. */
export const test = kitTest.extend<{ seed: Seed }>({
  seed: [{}, { option: true }],
  // Runs before `switchboard` (which depends on the data folder), so the seeded files are there at start-up.
  switchboardDataDir: async ({ switchboardDataDir, seed }, use) => {
    const servers = typeof seed.servers === 'function' ? seed.servers(switchboardDataDir) : seed.servers;
    if (servers && servers.length > 0) seedServers(switchboardDataDir, servers);
    await use(switchboardDataDir);
  },
});
