import { defineConfig } from '@playwright/test';
import { electronSkipReason } from '../../testing/electron-launch';

// The "electron" project runs every spec the "headless" project runs, against the real app (the kit's shared
// fixture picks the shell from `project.metadata.shell`). Where the app cannot run, it still lists every spec and
// each test reports itself skipped with the reason (the fixture skips before anything starts); this says so in one line.
const electronSkipped = electronSkipReason();
if (electronSkipped !== null && !process.env['PLAYWRIGHT_QUIET_ELECTRON']) {
  process.env['PLAYWRIGHT_QUIET_ELECTRON'] = '1';
  console.log(`e2e: the "electron" project is SKIPPED: ${electronSkipped}.`);
}

/** Chromium from Debian (Playwright's own browser download is not available on our machines). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: 2,
  // One retry in CI: this machine's Chromium sometimes lets the emulated geolocation time out when both cores are
  // busy (the apps spec's permission test). A test that fails twice still fails the run, and a retried pass is
  // listed as "flaky" in the output.
  retries: process.env['CI'] ? 1 : 0,
  reporter: [['list']],
  use: {
    headless: true,
    launchOptions: { executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'headless', testIgnore: '**/electron/**', metadata: { shell: 'headless' } },
    // The docs' example spec, run as a tester would (it imports switchboard/testing).
    { name: 'docs', testDir: '../../docs/examples', metadata: { shell: 'headless' } },
    {
      name: 'electron',
      testMatch: '**/*.spec.ts',
      metadata: { shell: 'electron' },
      // One app per worker: Electron windows are heavy on two shared cores.
      fullyParallel: false,
    },
  ],
});
