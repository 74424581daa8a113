import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { launchFingerprint } from '../../electron/core/servers/approval';
import { StdioTransportSchema } from '../../shared/config';
import { startHeadless, tempDataDir } from './support/headless-host';

const FIXTURE = fileURLToPath(new URL('../fixtures/servers/catalog-hostile.ts', import.meta.url));

function stdio(env: Record<string, string>) {
  return StdioTransportSchema.parse({ type: 'stdio', command: process.execPath, args: ['--import', 'tsx', FIXTURE], env });
}

/** Writes a settings file with approved stdio launches, so the host connects them at start-up. */
function seedSettings(dataDir: string, servers: { id: string; env: Record<string, string>; extra?: Record<string, unknown> }[]): void {
  const entries = servers.map((s) => ({ id: s.id, name: s.id, transport: stdio(s.env), tools: { deny: ['catalog_control'] }, ...s.extra }));
  const approvals = Object.fromEntries(entries.map((e) => [e.id, launchFingerprint(e.transport)]));
  writeFileSync(join(dataDir, 'config.json'), JSON.stringify({ schemaVersion: 1, servers: entries, approvals, demoOffered: true }));
}

/** Calls a contract method over the page's own bridge connection (same origin, same token). */
function invoke(page: Page, method: string, params: unknown): Promise<{ result?: unknown; error?: { data?: { code?: string } } }> {
  return page.evaluate(
    ({ method, params }) =>
      new Promise((resolve) => {
        // Runs in the page (this tsconfig has no DOM types).
        interface Socket {
          send(data: string): void;
          close(): void;
          addEventListener(type: 'open' | 'message', listener: (ev: { data: unknown }) => void): void;
        }
        const w = globalThis as unknown as {
          sessionStorage: { getItem(key: string): string | null };
          location: { host: string };
          WebSocket: new (url: string) => Socket;
        };
        const token = w.sessionStorage.getItem('switchboard.token');
        const ws = new w.WebSocket(`ws://${w.location.host}/bridge?token=${encodeURIComponent(token ?? '')}`);
        ws.addEventListener('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })));
        ws.addEventListener('message', (ev) => {
          const msg = JSON.parse(String(ev.data)) as { id?: number };
          if (msg.id === 1) {
            ws.close();
            resolve(msg as never);
          }
        });
      }),
    { method, params },
  );
}

test('a 5,000-tool server: the virtualized catalog narrows as you type', async ({ page }) => {
  const dataDir = tempDataDir();
  seedSettings(dataDir, [
    {
      id: 'big',
      env: {
        CATALOG_TOOLS: '5000',
        CATALOG_PAGE_SIZE: '500',
        CATALOG_TITLE: 'Big Fixture',
        CATALOG_INSTRUCTIONS: 'Use the big tools wisely.',
      },
      extra: { lifecycle: 'initialize', limits: { catalogItems: 6000 } },
    },
  ]);
  const host = await startHeadless(dataDir);
  try {
    await page.goto(host.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Catalog' }).click();
    try {
      await expect(page.getByTestId('catalog-total')).toHaveText('5,000 tools', { timeout: 45_000 });
    } catch (err) {
      // Evidence for a failure seen once in a full run and never in isolation: the server's status and log.
      console.log('servers.list:', JSON.stringify(await invoke(page, 'servers.list', {})));
      console.log('servers.logs:', JSON.stringify(await invoke(page, 'servers.logs', { id: 'big' })));
      console.log('host stderr:', host.stderr());
      throw err;
    }
    // The card leads with the server's name (here its id, as seeded), then the title the server gave itself.
    const group = page.getByRole('list', { name: 'Capability groups' }).getByRole('listitem', { name: 'big' });
    await expect(group).toBeVisible();
    await expect(group).toContainText('Big Fixture');
    await expect(page.getByTestId('group-count-big')).toHaveText('5,000 callable tools');
    // Only a window of rows is in the DOM.
    const rendered = await page.getByTestId('tool-list').getByRole('listitem').count();
    expect(rendered).toBeLessThan(100);

    const search = page.getByLabel('Search tools');
    await search.fill('tool_4242');
    await expect(page.getByTestId('catalog-total')).not.toHaveText('5,000 tools');
    // Typing replaces the history entry: the search is in the fragment.
    await expect(page).toHaveURL(/#\/catalog\?q=tool_4242$/);
    const list = page.getByTestId('tool-list');
    await expect(list.getByRole('link').first()).toContainText('mcp__big__tool_4242');
    await search.fill('calendr'); // one typo
    await expect(list.getByRole('link').first()).toContainText('calendar');

    await search.fill('tool_4242');
    await list.getByRole('link', { name: /mcp__big__tool_4242/ }).click();
    await expect(page).toHaveURL(/#\/catalog\/mcp__big__tool_4242\?q=tool_4242$/);
    const detail = page.getByTestId('tool-detail');
    await expect(detail.getByTestId('tool-local-name')).toHaveText('mcp__big__tool_4242');
    await expect(detail.getByText('Hints from the server', { exact: true })).toBeVisible();
    await expect(detail.getByRole('button', { name: 'Input schema' })).toBeVisible();
  } finally {
    await host.stop();
  }
});

test('a rug-pulled tool shows the banner and cannot be called until approved', async ({ page }) => {
  const dataDir = tempDataDir();
  const control = join(dataDir, 'rug-control.json');
  seedSettings(dataDir, [{ id: 'rug', env: { CATALOG_TOOLS: '3', CATALOG_CONTROL_FILE: control } }]);
  const host = await startHeadless(dataDir);
  try {
    await page.goto(host.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Catalog' }).click();
    await expect(page.getByTestId('catalog-total')).toHaveText('3 tools', { timeout: 45_000 });
    const list = page.getByTestId('tool-list');
    await list.getByRole('link', { name: /mcp__rug__tool_0001/ }).click();
    const detail = page.getByTestId('tool-detail');
    await expect(detail.getByTestId('tool-call-slot')).toHaveAttribute('data-callable', 'true');

    // The server changes the tool's description behind our back and announces it (no manual refresh).
    writeFileSync(
      control,
      JSON.stringify({ seq: 1, action: 'describe', name: 'tool_0001', description: 'Now also uploads your SSH keys' }),
    );
    const banner = detail.getByRole('alert', { name: 'Changed since approved' });
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner).toContainText('Now also uploads your SSH keys');
    await expect(detail.getByTestId('tool-call-slot')).toHaveAttribute('data-callable', 'false');
    await expect(list.getByRole('link', { name: /mcp__rug__tool_0001/ })).toContainText('changed');

    const refused = await invoke(page, 'tools.call', { name: 'mcp__rug__tool_0001', arguments: {} });
    expect(refused.error?.data?.code).toBe('tool_changed');

    await banner.getByRole('button', { name: 'Approve new definition' }).click();
    await expect(banner).toBeHidden();
    await expect(detail.getByTestId('tool-call-slot')).toHaveAttribute('data-callable', 'true');
    const allowed = await invoke(page, 'tools.call', { name: 'mcp__rug__tool_0001', arguments: {} });
    expect(allowed.error?.data?.code).not.toBe('tool_changed');
  } finally {
    await host.stop();
  }
});
