// Resources, templates, prompts and elicitation through the real renderer and core, against the SDK v2 fixture
// server (test/fixtures/servers/res-server.ts with RES_FIXTURE_ASK=1). Opening a link or an asked-for URL is checked
// in headless mode, which prints what it opens instead of starting the system browser.
import { expect, test } from './support/fixture';
import { fixture } from './support/seed';
import { shots } from './support/shots';
import { serverRow } from './support/ui';

const URL_ASKED = 'https://xn--80ak6aa92e.com/authorize?session=42&step=1';

test.use({
  seed: {
    servers: [
      {
        ...fixture('res-server.ts', 'res', 'Resource Fixture', { RES_FIXTURE_ASK: '1' }),
        extra: { lifecycle: 'initialize', elicitation: true },
      },
    ],
  },
});

test('browse resources, fill a template with a suggestion, run a prompt, answer elicitations', async ({ page }) => {
  await serverRow(page, 'Resource Fixture').click();
  await page.getByRole('tab', { name: 'Resources' }).click();

  // Browse and preview: Markdown rendered as elements (raw HTML skipped, images never loaded, links shown with their
  // address), SVG as source.
  const list = page.getByRole('list', { name: 'Resources' });
  await list.getByRole('link', { name: /readme/ }).click();
  await expect(page).toHaveURL(/#\/servers\/res\/resources\/res%3A%2F%2Freadme\.md$/);
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('heading', { name: 'Title' })).toBeVisible();
  await expect(preview.getByText('(https://example.com/x)')).toBeVisible();
  await shots(page, 'resource-markdown');
  await expect(preview.getByText(/image not loaded: tracker/)).toBeVisible();
  await expect(preview.locator('img')).toHaveCount(0);
  await list.getByRole('link', { name: /evil/ }).click();
  await expect(preview.getByTestId('resource-text')).toContainText('<script>window.__pwned = 1</script>');
  expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
  await list.getByRole('link', { name: /pixel/ }).click();
  await expect(preview.getByRole('img', { name: 'Image res://pixel.png' })).toBeVisible();

  // Template with a completion suggestion.
  await page.getByRole('button', { name: /^item/ }).click();
  const form = page.getByRole('form', { name: 'Template item' });
  // The suggestion list may close under the pointer when the page above it moves (a notice arriving as the server
  // finishes connecting): then type again and pick again.
  await expect(async () => {
    await form.getByLabel('category').fill('ve');
    await page.getByRole('option', { name: 'vegetable' }).click({ timeout: 5_000 });
    await expect(form.getByLabel('category')).toHaveValue('vegetable', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await form.getByLabel('id').fill('7');
  await form.getByRole('button', { name: 'Read' }).click();
  await expect(preview.getByTestId('resource-text')).toHaveText('Item 7 in vegetable');

  // The first question asks whether this server may ask at all; then answer one form (defaults pre-filled),
  // decline another.
  await list.getByRole('link', { name: /ask\/form/ }).click();
  const ask = page.getByRole('dialog', { name: 'Allow this server to ask you questions?' });
  await expect(ask.getByRole('button', { name: 'Allow', exact: true })).toBeVisible();
  await shots(page, 'elicitation-consent');
  await ask.getByRole('button', { name: 'Allow', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Resource Fixture asks for input' });
  await expect(dialog.getByTestId('elicitation-message')).toHaveText('Tell us about yourself');
  await expect(dialog.getByLabel('Nickname')).toHaveValue('sparrow');
  await expect(dialog.getByLabel('Size')).toHaveValue('Medium');
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(dialog.getByText('Enter an email address')).toBeVisible();
  await shots(page, 'elicitation-form');
  await dialog.getByLabel('Email').fill('wren@example.com');
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(dialog).toBeHidden();
  await expect(preview.getByTestId('resource-text')).toContainText('"email": "wren@example.com"');
  await expect(preview.getByTestId('resource-text')).toContainText('"nickname": "sparrow"');

  await list.getByRole('link', { name: /ask\/plain/ }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Decline' }).click();
  await expect(dialog).toBeHidden();
  await expect(preview.getByTestId('resource-text')).toHaveText('{\n  "action": "decline"\n}');

  // URL mode: full URL with the host highlighted (decoded) and an internationalized-name warning. Declined here (the
  // app would open the system browser); opening after consent is the headless test below.
  await list.getByRole('link', { name: /ask\/url/ }).click();
  await expect(dialog.getByTestId('elicitation-url')).toHaveText(URL_ASKED);
  await expect(dialog.getByTestId('url-host')).toHaveText('аррӏе.com');
  await expect(dialog.getByRole('alert').filter({ hasText: 'sent as xn--80ak6aa92e.com' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Decline' }).click();
  await expect(dialog).toBeHidden();

  // Run a prompt with a completion suggestion.
  await page.getByRole('tab', { name: 'Prompts' }).click();
  await page.getByRole('button', { name: /^Code review/ }).click();
  const prompt = page.getByRole('form', { name: 'Prompt review' });
  await prompt.getByLabel('language').fill('ty');
  await page.getByRole('option', { name: 'typescript' }).click();
  await prompt.getByLabel('code').fill('let x = 1');
  await prompt.getByRole('button', { name: 'Run prompt' }).click();
  const messages = page.getByRole('region', { name: 'Prompt messages' });
  await expect(messages.getByRole('article', { name: 'user message' }).first()).toContainText('Please review this typescript:');
  await expect(messages.getByRole('article', { name: 'assistant message' }).getByRole('img')).toBeVisible();
  await expect(messages.getByText('embedded text')).toBeVisible();
});

test('a link in a preview and an asked-for URL are opened only on a click, through the safe opener', async ({ switchboard, page }) => {
  test.skip(switchboard.shell === 'electron', 'the app opens the system browser; headless mode prints what it opens, which this reads');
  const opened = (): string[] =>
    switchboard
      .output()
      .split('\n')
      .filter((l) => l.startsWith('opened: '));

  await serverRow(page, 'Resource Fixture').click();
  await page.getByRole('tab', { name: 'Resources' }).click();
  const list = page.getByRole('list', { name: 'Resources' });
  await list.getByRole('link', { name: /readme/ }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByText('(https://example.com/x)')).toBeVisible();
  expect(switchboard.output()).not.toContain('opened: https://example.com/x');
  await preview.getByRole('button', { name: 'link' }).click();
  await expect.poll(() => switchboard.output()).toContain('opened: https://example.com/x');

  // URL mode: opened only after the person consents.
  await list.getByRole('link', { name: /ask\/url/ }).click();
  await page
    .getByRole('dialog', { name: 'Allow this server to ask you questions?' })
    .getByRole('button', { name: 'Allow', exact: true })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Resource Fixture asks for input' });
  await expect(dialog.getByTestId('elicitation-url')).toHaveText(URL_ASKED);
  expect(switchboard.output()).not.toContain(`opened: ${URL_ASKED}`);
  await dialog.getByRole('button', { name: 'Open in browser' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(opened).toEqual(['opened: https://example.com/x', `opened: ${URL_ASKED}`]);
});
