// The Gateway view: turn the gateway on, add a client (its token shown once), and answer the ask policy: a real SDK
// client calls a tool that is not read-only through the gateway, Switchboard shows the client, tool and arguments,
// and the person clicks Allow (the call runs), Deny (a tool-level error) or "Trust this tool" (it runs from then on
// without asking, listed in the client's edit dialog until removed). Arguments too long for the dialog are marked
// as shortened, with how much is hidden, and Allow waits until the person opened the whole text.
import AxeBuilder from '@axe-core/playwright';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixture';
import { fixture } from './support/seed';

/** Serious accessibility problems in the page (axe), the app header aside (not this view's). */
async function axeProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).exclude('header').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${v.id}: ${v.help} [${v.nodes.map((n) => n.target.join(' ') + ' ' + (n.failureSummary ?? '').slice(0, 200)).join(' | ')}]`,
    );
}

test.describe('gateway', () => {
  test.use({ seed: { servers: [fixture('calls-stdio.ts', 'fx', 'fx')] } });
  const clients: Client[] = [];
  test.afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  });

  test('turn on, add a client, and Allow or Deny its call of a tool that is not read-only', async ({ page }) => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Gateway' }).click();
    await expect(page).toHaveURL(/#\/gateway/);
    await expect(page.getByRole('heading', { name: 'Gateway', level: 1 })).toBeVisible();
    await page.getByRole('switch', { name: 'The gateway is off' }).click();
    await expect(page.getByText('The gateway is on')).toBeVisible();
    const url = (await page.getByLabel('Gateway URL').textContent())!.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    await page.getByRole('button', { name: 'Add client' }).click();
    const add = page.getByRole('dialog', { name: 'Add a gateway client' });
    await add.getByLabel('Name').fill('Terminal Agent');
    await add.getByRole('radio', { name: /All tools at once/ }).check();
    await add.getByRole('button', { name: 'Add client' }).click();
    const issued = page.getByRole('dialog', { name: 'Terminal Agent was added' });
    await expect(issued).toBeVisible();
    const token = (await issued.getByLabel('Token').textContent())!.trim();
    expect(token).toMatch(/^sbg_/);
    expect(await axeProblems(page)).toEqual([]);
    await issued.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('row', { name: /Terminal Agent/ })).toContainText('Asks before each call');
    expect(await axeProblems(page)).toEqual([]);

    const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    clients.push(client);
    // The server connects in the background; its tools are listed once published.
    await expect(async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('mcp__fx__write');
    }).toPass({ timeout: 30_000 });

    const allowed = client.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'from the agent' } });
    const ask = page.getByRole('dialog', { name: 'Allow a call from Terminal Agent?' });
    await expect(ask).toBeVisible();
    await expect(ask).toContainText('mcp__fx__write');
    await expect(ask.getByLabel('Arguments')).toContainText('"label": "from the agent"');
    expect(await axeProblems(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Allow' }).click();
    const result = await allowed;
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ label: 'from the agent' });
    await expect(ask).toBeHidden();

    const denied = client.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'second' } });
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Deny' }).click();
    const refused = await denied;
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('denied this call of mcp__fx__write');

    // Trusting the tool for this client: this call and later ones run without the dialog (a later call that
    // asked would wait for its deadline and fail the test), and the client's edit dialog lists the tool.
    const trusted = client.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'trusted' } });
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Trust this tool for Terminal Agent' }).click();
    expect((await trusted).isError).not.toBe(true);
    await expect(ask).toBeHidden();
    const again = await client.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'no dialog' } });
    expect(again.structuredContent).toMatchObject({ label: 'no dialog' });

    // The activity shows the calls, under the client's name.
    const activity = page.getByRole('list', { name: 'Recent gateway activity' });
    await expect(activity).toContainText('called mcp__fx__write');
    await expect(activity).toContainText('denied this call');

    await page.getByRole('button', { name: 'More actions for Terminal Agent' }).click();
    await page.getByRole('menuitem', { name: 'Edit…' }).click();
    const edit = page.getByRole('dialog', { name: /Terminal Agent/ });
    await expect(edit.getByRole('group', { name: 'Tools allowed without asking' })).toContainText('mcp__fx__write');
    await edit.getByRole('button', { name: 'Stop allowing mcp__fx__write' }).click();
    await expect(edit.getByRole('group', { name: 'Tools allowed without asking' })).toContainText('None yet.');
  });

  test('padded arguments: the ask marks the cut and what is hidden, and Allow waits until the whole text was opened', async ({ page }) => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Gateway' }).click();
    await page.getByRole('switch', { name: 'The gateway is off' }).click();
    await expect(page.getByText('The gateway is on')).toBeVisible();
    const url = (await page.getByLabel('Gateway URL').textContent())!.trim();
    await page.getByRole('button', { name: 'Add client' }).click();
    const add = page.getByRole('dialog', { name: 'Add a gateway client' });
    await add.getByLabel('Name').fill('Padder');
    await add.getByRole('radio', { name: /All tools at once/ }).check();
    await add.getByRole('button', { name: 'Add client' }).click();
    const issued = page.getByRole('dialog', { name: 'Padder was added' });
    const token = (await issued.getByLabel('Token').textContent())!.trim();
    await issued.getByRole('button', { name: 'Done' }).click();
    const client = new Client({ name: 'e2e-padder', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    clients.push(client);
    await expect(async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('mcp__fx__write');
    }).toPass({ timeout: 30_000 });

    // 40,000 characters of padding, then what the call really does.
    const label = `harmless ${'.'.repeat(40_000)} PAYLOAD-AFTER-PADDING <b>not html</b>`;
    const call = client.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label } });
    const ask = page.getByRole('dialog', { name: 'Allow a call from Padder?' });
    await expect(ask).toBeVisible();
    const chars = JSON.stringify({ ms: 1, label }, null, 2).length;
    await expect(ask.getByTestId('ask-shortened')).toContainText(
      `Shortened: showing 8,192 of ${chars.toLocaleString('en-US')} characters — 31.1 KiB hidden.`,
    );
    await expect(ask.getByLabel('Arguments (shortened)')).not.toContainText('PAYLOAD-AFTER-PADDING');
    await expect(ask.getByRole('button', { name: 'Allow', exact: true })).toBeDisabled();
    await expect(ask.getByRole('button', { name: 'Trust this tool for Padder' })).toBeDisabled();
    expect(await axeProblems(page)).toEqual([]);

    await ask.getByRole('button', { name: 'Open full arguments' }).click();
    const args = ask.getByLabel('Arguments', { exact: true });
    await expect(args).toContainText('PAYLOAD-AFTER-PADDING <b>not html</b>');
    await expect(args).toBeFocused();
    // Text, never markup: the tag stays characters.
    await expect(args.locator('b')).toHaveCount(0);
    await expect(ask.getByTestId('ask-shortened')).toContainText(`Showing all ${chars.toLocaleString('en-US')} characters.`);
    expect(await axeProblems(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Allow', exact: true }).click();
    const result = await call;
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ label });
    await expect(ask).toBeHidden();
  });
});
