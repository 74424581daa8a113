import { defineConfig } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const electronPkg = fileURLToPath(new URL('../../node_modules/electron/', import.meta.url));
const pathTxt = `${electronPkg}path.txt`;
const hasElectron = existsSync(pathTxt) && existsSync(`${electronPkg}dist/${readFileSync(pathTxt, 'utf8').trim()}`);
if (!hasElectron && !process.env['PLAYWRIGHT_QUIET_ELECTRON']) {
  process.env['PLAYWRIGHT_QUIET_ELECTRON'] = '1';
  console.log(
    'e2e: the "electron" project is SKIPPED: no Electron binary is installed (ELECTRON_SKIP_BINARY_DOWNLOAD); the "headless" project runs the same renderer and core.',
  );
}

/** Specs written on the switchboard/testing fixture: they run in either shell. */
const KIT_SPECS = ['kit.spec.ts', 'export-test.spec.ts', 'electron/**/*.spec.ts'];

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
  retries: 0,
  reporter: [['list']],
  use: {
    headless: true,
    launchOptions: { executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'headless', metadata: { shell: 'headless' }, testIgnore: '**/electron/**' },
    // The docs' example spec, run as a tester would (it imports switchboard/testing).
    { name: 'docs', metadata: { shell: 'headless' }, testDir: '../../docs/examples' },
    // The specs on the kit's fixture, again in the Electron app; without a binary the project selects nothing and
    // the one line above says why.
    {
      name: 'electron',
      metadata: { shell: 'electron' },
      testMatch: KIT_SPECS,
      ...(hasElectron ? {} : { testIgnore: '**' }),
    },
  ],
});
