// Headless, no keychain (secrets in memory): a server's secret and a gateway client's token do not survive a restart.
// After the restart there is one banner about it; the catalog lists the server's last-known tools as unavailable,
// naming the secret with "Enter it again"; the server's approval panel names the secret as missing (never
// "changed"), approval is off, a connect is refused naming the secret and the fix, and "Enter it again" opens the
// server's settings; entered again, the launch is approved and connects. The gateway client's row says its token
// was lost, with "Issue a new token" on the row itself; the new token works.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixture';
import { fixture } from './support/seed';
import { shots } from './support/shots';
import { connectionStatus, serverRow } from './support/ui';

const SECRET = 'weather-canary-5d1e';

/**
 * Waits for the open server to be connected, connecting by hand if it is not: an approval may start the server
 * itself, so a blind click could land on "Disconnect" (exact name: "Connect" is also part of "Disconnect").
 */
async function connectOnce(page: Page): Promise<void> {
  const connect = page.getByRole('button', { name: 'Connect', exact: true });
  await expect
    .poll(
      async () => {
        const status = await connectionStatus(page).textContent();
        if (status === 'Disconnected' && (await connect.isVisible())) await connect.click();
        return status;
      },
      { timeout: 45_000 },
    )
    .toBe('Connected');
}

test('a secret lost in a restart is named with its fix, and the launch is not approvable without it', async ({
  switchboard,
  page,
}, info) => {
  test.skip(info.project.name !== 'headless', 'headless mode is the one without a keychain here');
  const echo = fixture('echo-stdio.ts', 'weather', 'Weather');
  await switchboard.addServer({
    id: echo.id,
    name: echo.name,
    transport: { type: 'stdio', command: echo.command, args: echo.args, env: { WEATHER_API_KEY: { secret: true, value: SECRET } } },
  });
  await serverRow(page, 'Weather').click();
  const panel = page.getByRole('region', { name: 'Approve this command before it runs' });
  await panel.getByRole('button', { name: 'Approve and allow to run' }).click();
  await connectOnce(page);

  await switchboard.restart();
  const after = switchboard.page;
  const notices = after.getByRole('region', { name: 'Notices' });
  await expect(notices).toContainText('Secrets are kept in memory only');
  await expect(notices).toContainText('gateway client tokens will not survive a restart');
  await expect(notices.getByText(/keychain/i)).toHaveCount(1);

  // A connect is refused before anything is spawned, and the refusal names the secret and the fix.
  const refused = await switchboard.bridge['servers.connect']({ id: echo.id });
  expect(refused.error?.message).toContain('the secret WEATHER_API_KEY is no longer stored');
  expect(refused.error?.message).toContain('Enter it again');
  expect(refused.error?.message).not.toContain('changed');

  // The catalog lists the server's last-known tools, each unavailable with the lost secret and the fix; not callable.
  await switchboard.goto('#/catalog');
  const list = after.getByTestId('tool-list');
  const echoRow = list.getByRole('link', { name: /mcp__weather__echo/ });
  await expect(echoRow).toContainText('unavailable');
  await expect(echoRow).toContainText('Secret WEATHER_API_KEY lost at restart — enter it again');
  // The Server filter can pick the server, marked as needing its secret, and its card says so.
  await after.getByRole('combobox', { name: 'Server' }).selectOption({ label: 'Weather (secret lost)' }, { timeout: 15_000 });
  await expect(after).toHaveURL(/[?&]server=weather/);
  await expect(list.getByRole('link', { name: /mcp__weather__echo/ })).toContainText('unavailable');
  await expect(after.getByTestId('group-unavailable-weather')).toContainText('Secret WEATHER_API_KEY lost at restart — enter it again');
  await echoRow.click();
  const lostTool = after.getByTestId('tool-unavailable');
  await expect(lostTool).toContainText('The secret WEATHER_API_KEY was lost when Switchboard restarted — enter it again');
  await expect(after.getByTestId('tool-call-slot')).toHaveAttribute('data-callable', 'false');
  await expect(after.getByTestId('tool-call-slot').getByRole('button')).toHaveCount(0);
  await shots(after, 'lost-secret-catalog');
  await lostTool.getByRole('button', { name: 'Enter it again' }).click();
  await expect(after.getByRole('dialog').getByLabel('Environment value 1')).toBeVisible();
  await after.keyboard.press('Escape');
  await expect(after.getByRole('dialog')).toBeHidden();

  await serverRow(after, 'Weather').click();
  const again = after.getByRole('region', { name: 'Approve this command before it runs' });
  await expect(again.getByTestId('approval-lost-secrets')).toContainText('A secret is missing: WEATHER_API_KEY');
  await expect(again.getByTestId('approval-changes')).toContainText('The secret WEATHER_API_KEY is no longer stored; enter it again');
  await expect(again).not.toContainText('The value of WEATHER_API_KEY changed');
  await expect(again.getByRole('button', { name: 'Approve and allow to run' })).toBeDisabled();
  await shots(after, 'lost-secret-approval');

  await again.getByRole('button', { name: 'Enter it again' }).click();
  const dialog = after.getByRole('dialog');
  await dialog.getByLabel('Environment value 1').fill(SECRET);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(again.getByTestId('approval-lost-secrets')).toHaveCount(0);
  await again.getByRole('button', { name: 'Approve and allow to run' }).click();
  await connectOnce(after);
  expect(await after.content()).not.toContain(SECRET);
});

/** Status of an initialize POST to the gateway with `token`. */
async function initStatus(url: string, token: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
    }),
  });
  await res.body?.cancel();
  return res.status;
}

test('a gateway token lost in a restart is said on the client row, with "Issue a new token" right there', async ({ switchboard }, info) => {
  test.skip(info.project.name !== 'headless', 'headless mode is the one without a keychain here');
  const added = await switchboard.bridge['gateway.addClient']({ name: 'Terminal Agent', profile: { mode: 'all', writes: 'ask' } });
  const url = (await switchboard.bridge['gateway.enable']({})).url!;
  expect(await initStatus(url, added.token)).toBe(200);
  await switchboard.goto('#/gateway');
  const before = switchboard.page.getByRole('row', { name: /Terminal Agent/ });
  await expect(before).toBeVisible();
  await expect(before.getByTestId('gateway-token-lost')).toHaveCount(0);

  await switchboard.restart();
  const page = switchboard.page;
  await switchboard.goto('#/gateway');
  const row = page.getByRole('row', { name: /Terminal Agent/ });
  await expect(row.getByTestId('gateway-token-lost')).toContainText('Its token was lost when Switchboard restarted');
  await expect(row.getByTestId('gateway-token-lost')).toContainText('secrets are kept in memory only');
  const status = await switchboard.bridge['gateway.status']({});
  expect(await initStatus(status.url!, added.token)).toBe(401);
  await shots(page, 'gateway-token-lost');

  // The fix is on the row itself, not only in its menu.
  await row.getByRole('button', { name: 'Issue a new token' }).click();
  const issued = page.getByRole('dialog', { name: 'New token for Terminal Agent' });
  const token = (await issued.getByLabel('Token', { exact: true }).textContent())!.trim();
  expect(token).toMatch(/^sbg_/);
  await issued.getByRole('button', { name: 'Done' }).click();
  await expect(row.getByTestId('gateway-token-lost')).toHaveCount(0);
  expect(await initStatus(status.url!, token)).toBe(200);
  expect(await page.content()).not.toContain(token);
});
