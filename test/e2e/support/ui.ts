// Locators and steps the e2e specs share beyond the kit's person helpers (testing/person.ts), in the roles and names
// docs/selectors.md lists as stable.
import { expect, type Locator, type Page } from '@playwright/test';
import type { Switchboard } from '../../../testing/index';

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

/** Opens the Add server dialog from the empty state or the server list. */
export async function openAddDialog(page: Page): Promise<Locator> {
  const first = page.getByRole('button', { name: 'Add your first server' });
  if (await first.isVisible()) await first.click();
  else await page.getByRole('button', { name: 'Add server', exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add server' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Opens a tool on its server's Tools tab by deep link (the kit's `openTool` opens it in the catalog); waits for its form. */
export async function openServerTool(switchboard: Switchboard, serverId: string, tool: string): Promise<Locator> {
  const page = switchboard.page;
  await switchboard.goto(`#/servers/${encodeURIComponent(serverId)}/tools/${encodeURIComponent(tool)}`);
  const detail = page.getByTestId('tool-detail');
  await expect(detail.getByTestId('tool-local-name')).toHaveText(tool, { timeout: 30_000 });
  return page.getByRole('region', { name: 'Call tool' });
}

/** The result of the open tool's last call. */
export function callResult(page: Page): Locator {
  return page.getByRole('region', { name: 'Call result' });
}
