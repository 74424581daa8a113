// Server instructions on the catalog's group card and on the server page, through the real renderer and headless
// core, against test/fixtures/servers/instructions-stdio.ts, whose instructions hold markup-looking and control text.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { SettingsSchema } from '../../shared/config';
import { launchFingerprint } from '../../electron/core/servers/approval';
import { confSettingsStore } from '../shared/support/harness';
import { startHeadless, tempDataDir } from './support/headless-host';
import { connectionStatus, serverRow } from './support/ui';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TITLE = 'Instructions Fixture';
/** The fixture's instructions as they must be shown: markup as literal text, the ANSI, zero-width and bidi characters gone. */
const SHOWN = 'Use <b>bold</b> & <script>window.__pwned=1</script> carefully\nThen red alert';
/** Characters that must not reach the page: ESC, zero-width space, right-to-left override. */
const CONTROL = /[\u001b\u200b\u202e]/;

/** Writes a settings file with the fixture approved and connected at start-up. */
function seed(dataDir: string): void {
  const transport = {
    type: 'stdio' as const,
    command: process.execPath,
    args: ['--import', 'tsx', join(root, 'test/fixtures/servers/instructions-stdio.ts')],
    cwd: root,
    inheritEnv: false,
  };
  const settings = SettingsSchema.parse({
    schemaVersion: 1,
    servers: [{ id: 'instr', name: TITLE, transport, startup: 'eager' }],
    demoOffered: true,
  });
  const server = settings.servers[0]!;
  if (server.transport.type !== 'stdio') throw new Error('stdio expected');
  confSettingsStore(dataDir).save({ ...settings, approvals: { instr: launchFingerprint(server.transport) } });
}

const pwned = (): unknown => (globalThis as { __pwned?: unknown }).__pwned;

test('server instructions are shown as literal text without control characters on the group card and the server page', async ({ page }) => {
  const dataDir = tempDataDir();
  seed(dataDir);
  const host = await startHeadless(dataDir);
  try {
    await page.goto(host.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Catalog' }).click();

    const card = page.getByRole('list', { name: 'Capability groups' }).getByRole('listitem', { name: TITLE });
    await expect(card).toBeVisible({ timeout: 45_000 });
    await expect(page.getByTestId('group-count-instr')).toHaveText('1 callable tool');
    await card.getByRole('button', { name: 'Instructions from the server (untrusted)' }).click();
    const instructions = card.getByTestId('group-instructions-instr');
    await expect(instructions).toBeVisible();
    await expect(instructions).toHaveText(SHOWN, { useInnerText: true });
    expect(await instructions.textContent()).toBe(SHOWN);
    await expect(card.locator('b, script, strong')).toHaveCount(0);
    expect(await card.textContent()).not.toMatch(CONTROL);
    expect(await page.evaluate(pwned)).toBeUndefined();

    // The server page's "Server information" (overview tab) shows the same text the same way.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Servers' }).click();
    await serverRow(page, TITLE).click();
    await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 30_000 });
    const info = page.getByRole('region', { name: 'Server information' });
    const shown = info.getByTestId('server-instructions');
    await expect(shown).toBeVisible();
    expect(await shown.textContent()).toBe(SHOWN);
    await expect(info.locator('b, script, strong')).toHaveCount(0);
    expect(await info.textContent()).not.toMatch(CONTROL);
    expect(await page.evaluate(pwned)).toBeUndefined();
  } finally {
    await host.stop();
  }
});
