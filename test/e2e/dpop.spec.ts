// DPoP end to end: a machine client (client credentials) against an authorization server and MCP server that both
// require DPoP. The sign-in panel says the tokens are DPoP-bound and shows the key's thumbprint, the same one the
// authorization server bound the token to; no key material reaches the page, the bridge, the host's output or the
// data folder. Screenshots of the panel in light and dark at 1400x900 and 1024x700.
import { startWorld, type World } from '../fixtures/auth/oauth-world';
import { expectAccessible } from './support/axe';
import { recordBridgeFrames } from './support/bridge-frames';
import { dataFileTexts } from '../shared/support/data-files';
import { expect, test } from './support/fixture';
import { connectionStatus } from './support/ui';

test('the sign-in panel shows DPoP-bound tokens by key thumbprint only', async ({ switchboard, page }, testInfo) => {
  let world: World | undefined;
  try {
    const frames = switchboard.shell === 'headless' ? await recordBridgeFrames(page) : undefined;
    world = await startWorld({
      dpop: { rotateEvery: 3 },
      machineClient: { id: 'machine', secret: 'machine-secret', method: 'client_secret_basic' },
    });
    await switchboard.addServer({ id: 'bound', name: 'bound', transport: { type: 'http', url: world.mcpUrl } });
    await page.getByRole('tab', { name: 'Sign-in' }).click();
    const panel = page.getByRole('region', { name: 'Sign-in' });
    await expect(panel.getByTestId('auth-dpop')).toHaveCount(0);
    await panel.getByText('Client settings').click();
    await panel.getByLabel('Grant').selectOption('client_credentials');
    await panel.getByLabel('Client id', { exact: true }).fill('machine');
    await panel.getByLabel('Client secret', { exact: true }).fill('machine-secret');
    await panel.getByRole('button', { name: 'Save client' }).click();
    await expect(panel.getByText(/Configured: client_credentials/)).toBeVisible();

    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 30_000 });
    await expect(panel.getByTestId('auth-state')).toContainText('Signed in');
    const dpop = panel.getByTestId('auth-dpop');
    await expect(dpop).toContainText('DPoP-bound');
    const w = world;
    await expect.poll(() => w.as.boundTo.length).toBe(1);
    const thumbprint = world.as.boundTo[0]!;
    await expect(dpop.locator('code')).toHaveText(thumbprint);
    expect(world.bearerSeen.filter((b) => b.startsWith('Bearer '))).toEqual([]);
    expect(world.rsDpop!.accepted.every((p) => p.jkt === thumbprint)).toBe(true);

    // No JWK (public or private) anywhere the person or another process could read it.
    const dom = await page.content();
    const places = {
      dom,
      output: switchboard.output(),
      files: dataFileTexts(switchboard.dataDir).join('\n'),
      ...(frames ? { bridge: frames.join('\n') } : {}),
    };
    for (const [where, text] of Object.entries(places)) {
      expect(/"kty"\s*:\s*"EC"/.test(text), `a JWK in ${where}`).toBe(false);
      expect(/"d"\s*:\s*"[A-Za-z0-9_-]{40,}"/.test(text), `a private key in ${where}`).toBe(false);
    }

    await panel.getByText('Client settings').click(); // folds the form, so the shots show the status
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectAccessible(page, '[data-testid="auth-dpop"]');
      for (const [width, height] of [
        [1400, 900],
        [1024, 700],
      ] as const) {
        await page.setViewportSize({ width, height });
        await expect(dpop).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`dpop-signin-${colorScheme}-${width}.png`) });
        if (process.env['SHOTS_DIR'])
          await page.screenshot({ path: `${process.env['SHOTS_DIR']}/dpop-signin-${colorScheme}-${width}.png` });
      }
    }
  } finally {
    await world?.close();
  }
});
