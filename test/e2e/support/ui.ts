// What a person does through the UI, in the roles and names docs/selectors.md lists as stable.
import { expect, type Locator, type Page } from '@playwright/test';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The server list in the navigation column. */
export function serverList(page: Page): Locator {
  return page.getByRole('list', { name: 'Server list' });
}

/** A server's row (a link whose name starts with the server's name). */
export function serverRow(page: Page, name: string): Locator {
  return serverList(page).getByRole('link', { name: new RegExp(`^${escape(name)}(\\s|$)`) });
}

/** The open server's connection status. */
export function connectionStatus(page: Page): Locator {
  return page.getByRole('status', { name: 'Connection status' });
}

/** Goes to a deep link of the running app (a fragment such as "#/servers/x/tools"). */
export async function goHash(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, hash);
}

/** Opens the Add server dialog from the empty state or the server list. */
export async function openAddDialog(page: Page): Promise<Locator> {
  const first = page.getByRole('button', { name: 'Add your first server' });
  if (await first.isVisible()) await first.click();
  else await page.getByRole('button', { name: 'Add server', exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add server' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Adds a stdio server through the dialog (its launch still needs approval). */
export async function addStdioServer(
  page: Page,
  s: { name: string; id?: string; command: string; args: string[]; cwd?: string },
): Promise<void> {
  const dialog = await openAddDialog(page);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(s.name);
  if (s.id) await dialog.getByRole('textbox', { name: 'Id', exact: true }).fill(s.id);
  await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill(s.command);
  await dialog.getByRole('textbox', { name: 'Arguments', exact: true }).fill(s.args.join('\n'));
  if (s.cwd) await dialog.getByLabel('Working directory').fill(s.cwd);
  await dialog.getByRole('button', { name: 'Add server' }).click();
  await expect(dialog).toBeHidden();
}

/** Adds an HTTP server through the dialog. */
export async function addHttpServer(page: Page, s: { name: string; id?: string; url: string; bearer?: string }): Promise<void> {
  const dialog = await openAddDialog(page);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(s.name);
  if (s.id) await dialog.getByRole('textbox', { name: 'Id', exact: true }).fill(s.id);
  await dialog.getByLabel('Transport').selectOption('http');
  await dialog.getByRole('textbox', { name: 'URL', exact: true }).fill(s.url);
  if (s.bearer) await dialog.getByLabel('Bearer token (optional)').fill(s.bearer);
  await dialog.getByRole('button', { name: 'Add server' }).click();
  await expect(dialog).toBeHidden();
}

/** Approves the open server's launch and waits until it is connected. */
export async function approveAndConnect(page: Page): Promise<void> {
  await page
    .getByRole('region', { name: 'Approve this command before it runs' })
    .getByRole('button', { name: 'Approve and allow to run' })
    .click();
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 45_000 });
}

/** Opens a tool of a server by deep link and waits for its form. */
export async function openTool(page: Page, serverId: string, tool: string): Promise<Locator> {
  await goHash(page, `#/servers/${encodeURIComponent(serverId)}/tools/${encodeURIComponent(tool)}`);
  const detail = page.getByTestId('tool-detail');
  await expect(detail.getByTestId('tool-local-name')).toHaveText(tool, { timeout: 30_000 });
  return page.getByRole('region', { name: 'Call tool' });
}

/** The result of the open tool's last call. */
export function callResult(page: Page): Locator {
  return page.getByRole('region', { name: 'Call result' });
}
