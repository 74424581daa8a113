// Client features through the real renderer and core, against @modelcontextprotocol/server-everything:
// folders shared from the Client features panel reach the server on roots/list; a sampling request opens the dialog
// with what the server sent and the typed reply reaches the server; the first question from a server asks whether
// it may ask at all ("Allow" shows the form, whose errors sit beside their fields; "Don't allow" is remembered).
import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixture';
import { everything, type SeedServer } from './support/seed';
import { shots } from './support/shots';

const SHOTS = process.env['SHOTS_DIR'];

/** server-everything, allowed to ask questions, with the client features asked for. */
function ev(id: string, name: string, features: { sampling?: boolean; roots?: boolean; tasks?: boolean } = {}): SeedServer {
  return { ...everything(id, name), extra: { lifecycle: 'initialize', elicitation: true, ...features } };
}

async function openServer(page: Page, name: string, tab: string | RegExp): Promise<void> {
  await page
    .getByRole('list', { name: 'Server list' })
    .getByRole('link', { name: new RegExp(name) })
    .click();
  await page.getByRole('tab', { name: tab }).click();
}

test.describe(() => {
  test.use({ seed: { servers: [ev('ev', 'Everything', { sampling: true, roots: true, tasks: true })] } });

  test('roots from the Client features panel and sampling answered by hand', async ({ switchboard, bridge, page }) => {
    test.setTimeout(240_000);
    const dataDir = switchboard.dataDir;
    await page.setViewportSize({ width: 1400, height: 900 });
    await openServer(page, 'Everything', 'Client features');
    const panel = page.getByTestId('client-features');
    await expect(panel.getByRole('switch', { name: 'Answer sampling requests' })).toBeChecked();
    await expect(panel.getByRole('switch', { name: 'Share folders (roots)' })).toBeChecked();

    // Share a folder: shown as the file:// URI it is sent as; a missing one is marked.
    await panel.getByLabel('Folder path').fill(dataDir);
    await panel.getByLabel('Name (optional)').fill('Data');
    await panel.getByRole('button', { name: 'Add folder' }).click();
    await expect(panel.getByTestId('root-uri')).toHaveText([`file://${dataDir}`]);
    await expect(panel.getByLabel('Folder path')).toHaveValue('');
    await panel.getByLabel('Folder path').fill('relative/path');
    await panel.getByRole('button', { name: 'Add folder' }).click();
    await expect(panel.getByText(/Enter a full folder path/)).toBeVisible();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/features-1400.png`, fullPage: true });
    await expect.poll(async () => (await bridge.call('servers.status', { id: 'ev' })).state, { timeout: 30_000 }).toBe('connected');
    await bridge.call('catalog.refresh', { id: 'ev' });
    const roots = await bridge.call('tools.call', { name: 'mcp__ev__get_roots_list', arguments: {} });
    expect(roots.presentation.text).toContain(`URI: file://${dataDir}`);
    expect(roots.presentation.text).toContain('1. Data');

    // Sampling: the dialog shows what the server sent; the typed reply goes back.
    const call = bridge.call('tools.call', {
      name: 'mcp__ev__trigger_sampling_request',
      arguments: { prompt: 'Name a colour', maxTokens: 64 },
    });
    const dialog = page.getByRole('dialog', { name: 'Everything asks for a model reply' });
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    await expect(dialog.getByTestId('sampling-system')).toHaveText('You are a helpful test server.');
    await expect(dialog.getByTestId('sampling-messages')).toContainText('Name a colour');
    await expect(dialog.getByTestId('sampling-preferences')).toContainText('64');
    await expect(dialog.getByTestId('sampling-preferences')).toContainText('0.7');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await expect(dialog.getByText('Write the reply the server should get, or decline')).toBeVisible();
    await expect(dialog.getByLabel(/Your reply/)).toBeFocused();
    await shots(page, 'sampling-dialog');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/sampling-1400.png` });
    await expectAccessible(page, '[role="dialog"]');
    await dialog.getByLabel(/Your reply/).fill('Ultramarine');
    await dialog.getByLabel('Stop reason').click();
    await page.getByRole('option', { name: /maxTokens/ }).click();
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await expect(dialog).toBeHidden();
    const outcome = await call;
    expect(outcome.status).toBe('ok');
    expect(outcome.presentation.text).toContain('"text": "Ultramarine"');
    expect(outcome.presentation.text).toContain('"stopReason": "maxTokens"');

    // A small window: the dialog fits and its actions stay in view.
    await page.setViewportSize({ width: 1024, height: 700 });
    const second = bridge.call('tools.call', { name: 'mcp__ev__trigger_sampling_request', arguments: { prompt: 'Again' } });
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    await expect(dialog.getByRole('button', { name: 'Decline' })).toBeInViewport();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/sampling-1024.png` });
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await expect(dialog).toBeHidden();
    expect((await second).status).toBe('error');
    await expectAccessible(page, '[data-testid="client-features"]');
  });
});

test.describe(() => {
  test.use({ seed: { servers: [ev('yes', 'Everything A'), ev('no', 'Everything B')] } });

  test('the first question from a server asks for consent; Allow shows the form, Don’t allow is remembered', async ({ bridge, page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1024, height: 700 });
    for (const id of ['yes', 'no'])
      await expect.poll(async () => (await bridge.call('servers.status', { id })).state, { timeout: 30_000 }).toBe('connected');
    await bridge.call('catalog.refresh', {});

    const first = bridge.call('tools.call', { name: 'mcp__yes__trigger_elicitation_request', arguments: {} });
    const ask = page.getByRole('dialog', { name: 'Allow this server to ask you questions?' });
    await expect(ask).toBeVisible({ timeout: 20_000 });
    await expect(ask).toContainText('Everything A');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/consent-1024.png` });
    await expectAccessible(page, '[role="dialog"]');
    await ask.getByRole('button', { name: 'Allow', exact: true }).click();

    const form = page.getByRole('dialog', { name: 'Everything A asks for input' });
    await expect(form).toBeVisible();
    await form.getByRole('button', { name: 'Accept' }).click();
    await expect(form.getByRole('textbox', { name: 'String', exact: true })).toBeFocused();
    await expect(form.getByText('Enter a value for String')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Accept' })).toBeInViewport();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/elicitation-1024.png` });
    await expectAccessible(page, '[role="dialog"]');
    await form.getByRole('button', { name: 'Decline' }).click();
    await expect(form).toBeHidden();
    expect(JSON.stringify((await first).presentation)).toMatch(/decline/i);

    // Don't allow: this question and later ones are declined without a dialog.
    const denied = bridge.call('tools.call', { name: 'mcp__no__trigger_elicitation_request', arguments: {} });
    const askB = page.getByRole('dialog', { name: 'Allow this server to ask you questions?' });
    await expect(askB).toContainText('Everything B', { timeout: 20_000 });
    await askB.getByRole('button', { name: 'Don’t allow' }).click();
    await expect(askB).toBeHidden();
    expect(JSON.stringify((await denied).presentation)).toMatch(/decline/i);
    const again = await bridge.call('tools.call', { name: 'mcp__no__trigger_elicitation_request', arguments: {} });
    expect(JSON.stringify(again.presentation)).toMatch(/decline/i);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect((await bridge.call('protocol.features', { id: 'no' })).elicitationConsent).toBe('deny');
    expect((await bridge.call('protocol.features', { id: 'yes' })).elicitationConsent).toBe('allow');
  });
});

test.describe(() => {
  test.use({ seed: { servers: [ev('ev', 'Everything')] } });

  test('with sampling and roots off, the Tools tab says that more tools may need them and links to Client features', async ({ page }) => {
    test.setTimeout(120_000);
    await openServer(page, 'Everything', /Tools/);
    const hint = page.getByTestId('tools-features-hint');
    await expect(hint).toContainText('answer sampling, roots', { timeout: 30_000 });
    await hint.getByRole('link', { name: 'Client features' }).click();
    await expect(page.getByRole('tab', { name: 'Client features', selected: true })).toBeVisible();
    await expect(page.getByTestId('client-features').getByRole('switch', { name: 'Answer sampling requests' })).not.toBeChecked();
  });
});
