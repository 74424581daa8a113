// The catalog against test/fixtures/servers/catalog-hostile.ts: a 5,000-tool server in a virtualized list that
// narrows as you type, and a tool whose definition changes behind the person's back (a rug pull).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, expect, test } from './support/fixture';
import { fixture, type SeedServer } from './support/seed';

/** The hostile catalog fixture as a seeded server named by its id (its control tool denied). */
function catalogServer(id: string, env: Record<string, string>, extra: Record<string, unknown> = {}): SeedServer {
  return { ...fixture('catalog-hostile.ts', id, id, env), extra: { tools: { deny: ['catalog_control'] }, ...extra } };
}

test.describe(() => {
  test.use({
    seed: {
      servers: [
        catalogServer(
          'big',
          {
            CATALOG_TOOLS: '5000',
            CATALOG_PAGE_SIZE: '500',
            CATALOG_TITLE: 'Big Fixture',
            CATALOG_INSTRUCTIONS: 'Use the big tools wisely.',
          },
          { lifecycle: 'initialize', limits: { catalogItems: 6000 } },
        ),
      ],
    },
  });

  test('a 5,000-tool server: the virtualized catalog narrows as you type', async ({ switchboard, bridge, page }) => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Catalog' }).click();
    try {
      await expect(page.getByTestId('catalog-total')).toHaveText('5,000 tools', { timeout: 45_000 });
    } catch (err) {
      // Evidence for a failure seen once in a full run and never in isolation: the server's status and log.
      console.log('servers.list:', JSON.stringify(await bridge['servers.list']({})));
      console.log('servers.logs:', JSON.stringify(await bridge['servers.logs']({ id: 'big' })));
      console.log('switchboard output:', switchboard.output());
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
  });
});

test.describe(() => {
  const controlFile = (dataDir: string): string => join(dataDir, 'rug-control.json');
  test.use({ seed: { servers: (dataDir) => [catalogServer('rug', { CATALOG_TOOLS: '3', CATALOG_CONTROL_FILE: controlFile(dataDir) })] } });

  test('a rug-pulled tool shows the banner and cannot be called until approved', async ({ switchboard, bridge, page }) => {
    const control = controlFile(switchboard.dataDir);
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

    const refused = await bridge['tools.call']({ name: 'mcp__rug__tool_0001', arguments: {} }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('tool_changed');

    await banner.getByRole('button', { name: 'Approve new definition' }).click();
    await expect(banner).toBeHidden();
    await expect(detail.getByTestId('tool-call-slot')).toHaveAttribute('data-callable', 'true');
    const allowed = await bridge['tools.call']({ name: 'mcp__rug__tool_0001', arguments: {} }).catch((e: unknown) => e);
    expect(allowed instanceof AppError ? allowed.code : undefined).not.toBe('tool_changed');
  });
});
