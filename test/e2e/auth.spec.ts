// Sign-in end to end against the test authorization server. In headless mode, a server that needs authorization
// shows "Sign-in needed" and never opens anything by itself; Sign in shows the authorization URL as copyable text
// (and prints it); the test plays the browser on "another machine" and pastes the redirect URL; the server connects.
// A canary bearer token entered in the panel appears nowhere in the settings file, the host's output, the bridge
// messages or the DOM. Enterprise sign-in (Cross-App Access) opens no browser and runs in either shell.
import { startWorld, type World } from '../fixtures/auth/oauth-world';
import { startTestIdp, type TestIdp } from '../fixtures/auth/test-idp';
import { recordBridgeFrames } from './support/bridge-frames';
import { dataFileTexts } from '../shared/support/data-files';
import { expect, test } from './support/fixture';
import { connectionStatus } from './support/ui';

/** Every file in the data folder, as one text. */
const filesText = (dir: string): string => dataFileTexts(dir).join('\n');

test('sign in by pasting the redirect URL; a canary bearer token never leaves the core', async ({ switchboard, page }) => {
  test.skip(
    switchboard.shell === 'electron',
    'the app opens the system browser to sign in; pasting the redirect is the headless (SSH) path',
  );
  let world: World | undefined;
  try {
    const frames = await recordBridgeFrames(page);
    world = await startWorld({ tokenPrefix: 'CANARY_AT_' });
    await switchboard.addServer({ id: 'protected', name: 'protected', transport: { type: 'http', url: world.mcpUrl } });

    // Connecting without credentials: needs sign-in, nothing opened or printed.
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('tab', { name: 'Sign-in' }).click();
    const panel = page.getByRole('region', { name: 'Sign-in' });
    await expect(panel.getByTestId('auth-state')).toContainText('Sign-in needed', { timeout: 20_000 });
    expect(switchboard.output()).not.toContain('Open this address');
    expect(world.authorizationRequests).toHaveLength(0);

    // Sign in: the URL is shown as text (headless) and printed to stderr.
    await panel.getByRole('button', { name: 'Sign in' }).click();
    const urlBox = panel.getByLabel('Authorization URL');
    await expect(urlBox).toHaveValue(/\/authorize\?/, { timeout: 20_000 });
    const authorizationUrl = await urlBox.inputValue();
    await expect.poll(() => switchboard.output()).toContain(authorizationUrl);
    await expect(panel.locator('[data-step="browser"]')).toHaveAttribute('data-state', 'current');

    // The browser on another machine: consent, then copy the address bar.
    const redirect = await world.consent(authorizationUrl);
    // A URL from another flow is refused and shown as plain text.
    const forged = new URL(redirect);
    forged.searchParams.set('state', 'x'.repeat(43));
    await panel.getByLabel('Redirect URL').fill(forged.href);
    await panel.getByRole('button', { name: 'Complete sign-in' }).click();
    await expect(panel.getByRole('alert')).toContainText('another sign-in');
    await panel.getByLabel('Redirect URL').fill(redirect);
    await panel.getByRole('button', { name: 'Complete sign-in' }).click();
    await expect(panel.getByTestId('auth-state')).toContainText('Signed in', { timeout: 20_000 });
    await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 30_000 });

    // The OAuth access token (CANARY_AT_…) went to the MCP server and nowhere else.
    const sent = world.bearerSeen.filter((b) => b.includes('CANARY_AT_'));
    expect(sent.length).toBeGreaterThan(0);
    // A canary bearer token typed into the panel.
    const canary = `CANARY_${Date.now().toString(36)}`;
    await panel.getByText('Static bearer token').click();
    await panel.getByLabel('Bearer token', { exact: true }).fill(canary);
    await panel.getByRole('button', { name: 'Save token' }).click();
    await expect(panel.getByText('A token is stored in the credential store.')).toBeVisible();
    await expect(panel.getByLabel('Bearer token', { exact: true })).toHaveValue('');

    const dom = await page.content();
    for (const secret of [canary, 'CANARY_AT_']) {
      expect(dom).not.toContain(secret);
      expect(frames.join('\n')).not.toContain(secret);
      expect(switchboard.output()).not.toContain(secret);
      expect(filesText(switchboard.dataDir)).not.toContain(secret);
    }
  } finally {
    await world?.close();
  }
});

test('enterprise sign-in (Cross-App Access): the pasted ID token connects the server and never leaves the core', async ({
  switchboard,
  page,
}) => {
  const idToken = `eyJhbGciOiJub25lIn0.CANARY_IDT_${Date.now().toString(36)}.sig`;
  let world: World | undefined;
  let idp: TestIdp | undefined;
  try {
    // Both directions over the headless bridge (the Electron window's IPC cannot be watched).
    const frames = switchboard.shell === 'headless' ? await recordBridgeFrames(page, { sent: true }) : undefined;
    idp = await startTestIdp({ idToken, clientId: 'idp-client' });
    const i = idp;
    const ref: { world?: World } = {};
    world = await startWorld({
      tokenPrefix: 'CANARY_AT_',
      jwtBearerClient: {
        id: 'xaa-client',
        secret: 'xaa-secret',
        acceptsJag: (jag) => ref.world !== undefined && i.issued(jag, ref.world.issuer, ref.world.mcpUrl),
      },
    });
    ref.world = world;
    await switchboard.addServer({ id: 'enterprise', name: 'enterprise', transport: { type: 'http', url: world.mcpUrl } });
    await page.getByRole('tab', { name: 'Sign-in' }).click();
    const panel = page.getByRole('region', { name: 'Sign-in' });
    await panel.getByText('Client settings').click();
    await panel.getByLabel('Grant').selectOption('cross_app_access');
    await panel.getByLabel('Client id', { exact: true }).fill('xaa-client');
    await panel.getByLabel('Client secret', { exact: true }).fill('xaa-secret');
    await panel.getByLabel('Identity provider issuer').fill(idp.issuer);
    await panel.getByLabel('Identity provider client id').fill('idp-client');
    await panel.getByLabel('ID token from your identity provider').fill(idToken);
    await panel.getByRole('button', { name: 'Save client' }).click();
    await expect(panel.getByText(/Configured: cross_app_access.*ID token stored/)).toBeVisible();

    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 30_000 });
    await expect(panel.getByTestId('auth-state')).toContainText('Signed in');
    expect(idp.exchanges.filter((e) => e.accepted)).toHaveLength(1);
    expect(world.authorizationRequests).toHaveLength(0);

    // The ID token was typed into the page and sent once to the core (the one outgoing frame that carries it);
    // nothing the core sends back, prints or stores contains it, and the form no longer shows it.
    const received = frames?.filter((f) => !f.includes('"auth.setClient"'));
    const dom = await page.content();
    for (const secret of [idToken, 'CANARY_AT_']) {
      expect(dom).not.toContain(secret);
      if (received) expect(received.join('\n')).not.toContain(secret);
      expect(switchboard.output()).not.toContain(secret);
      expect(filesText(switchboard.dataDir)).not.toContain(secret);
    }
  } finally {
    await world?.close();
    await idp?.close();
  }
});
