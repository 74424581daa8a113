// The Skills tab through the real renderer and core, against the skills fixture (an SDK v2 low-level server):
// a verified skill with its SKILL.md rendered safely, a skill whose manifest lies about one file (named, not
// approvable), and an approved skill that changes on the server and asks for approval again; then a real gateway
// client lists and reads the approved skill through the gateway.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './support/fixture';
import type { Page } from '@playwright/test';
import { fixture, root } from './support/seed';
import { serverRow } from './support/ui';
import * as z from 'zod';

// The fixture serves the `changing` skill from this file's contents (v1 while it is absent).
const versionFile = join(tmpdir(), `sb-skills-e2e-${process.pid}`);

const SHOTS = join(root, 'test-results', 'skills');

test.use({ seed: { servers: [fixture('skills-stdio.ts', 'skills', 'Skill Fixture', { SKILLS_FIXTURE_VERSION_FILE: versionFile })] } });

test.afterAll(() => rmSync(versionFile, { force: true }));

test('skills: verified, mismatch named, and a changed skill asks for approval again', async ({ page }) => {
  rmSync(versionFile, { force: true });
  await serverRow(page, 'Skill Fixture').click();
  await expect(serverRow(page, 'Skill Fixture')).toContainText('Connected', { timeout: 60_000 });
  await page.getByRole('tab', { name: 'Skills' }).click();
  const list = page.getByRole('list', { name: 'Skills' });

  // Same-name skills are both listed, each by its path; skipped entries say why.
  await expect(list.getByRole('listitem').filter({ hasText: 'acme/billing/refunds' })).toBeVisible();
  await expect(list.getByRole('listitem').filter({ hasText: 'acme/support/refunds' })).toBeVisible();
  await expect(page.getByText('2 skipped')).toBeVisible();

  // Verified: every file checked, SKILL.md rendered as Markdown with its raw HTML skipped.
  await list.getByRole('listitem').filter({ hasText: 'git-workflow' }).click();
  const detail = page.getByTestId('skill-detail');
  await expect(detail.getByTestId('skill-verification')).toContainText('Verified');
  await expect(detail.getByText('Apache-2.0')).toBeVisible();
  await expect(detail.getByRole('heading', { name: 'Git workflow' })).toBeVisible();
  await expect(detail.locator('script')).toHaveCount(0);
  await detail.getByRole('button', { name: 'Read references/CHECKLIST.md' }).click();
  await expect(detail.getByTestId('skill-file')).toContainText('CHECKLIST.md (verified)');

  // Mismatch: the lying file is named and the skill cannot be approved.
  await list.getByRole('listitem').filter({ hasText: 'tampered' }).click();
  await expect(detail.getByTestId('skill-verification')).toContainText('skill://tampered/scripts/run.sh does not match the manifest');
  await expect(detail.getByRole('button', { name: 'Approve' })).toBeDisabled();
  await expect(detail.getByRole('button', { name: 'Read scripts/run.sh' })).toBeDisabled();

  // Approve, then the server changes the skill: after a refresh it is marked changed and asks again.
  await list.getByRole('listitem').filter({ hasText: 'changing' }).click();
  await expect(detail.getByTestId('skill-verification')).toContainText('Verified');
  await detail.getByRole('button', { name: 'Approve' }).click();
  await expect(detail.getByTestId('skill-approval')).toHaveText('Approved');
  writeFileSync(versionFile, 'v2');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(detail.getByTestId('skill-approval')).toHaveText('Changed since approved');
  await expect(detail.getByText('This skill changed since you approved it')).toBeVisible();
  await detail.getByRole('button', { name: 'Verify again' }).click();
  await expect(detail.getByText('Version v2.')).toBeVisible();
  await detail.getByRole('button', { name: 'Approve again' }).click();
  await expect(detail.getByTestId('skill-approval')).toHaveText('Approved');
});

test('a gateway client lists and reads skills: only the approved one, under its server', async ({ page }) => {
  rmSync(versionFile, { force: true });
  await serverRow(page, 'Skill Fixture').click();
  await expect(serverRow(page, 'Skill Fixture')).toContainText('Connected', { timeout: 60_000 });
  await page.getByRole('tab', { name: 'Skills' }).click();
  const list = page.getByRole('list', { name: 'Skills' });
  const detail = page.getByTestId('skill-detail');
  await list.getByRole('listitem').filter({ hasText: 'git-workflow' }).click();
  await expect(detail.getByTestId('skill-verification')).toContainText('Verified');
  await detail.getByRole('button', { name: 'Approve' }).click();
  await expect(detail.getByTestId('skill-approval')).toHaveText('Approved');

  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Gateway' }).click();
  await page.getByRole('switch', { name: 'The gateway is off' }).click();
  await expect(page.getByText('The gateway is on')).toBeVisible();
  const url = (await page.getByLabel('Gateway URL').textContent())!.trim();
  await page.getByRole('button', { name: 'Add client' }).click();
  const add = page.getByRole('dialog', { name: 'Add a gateway client' });
  await add.getByLabel('Name').fill('Skill Agent');
  await add.getByRole('radio', { name: /All tools at once/ }).check();
  await add.getByRole('button', { name: 'Add client' }).click();
  const issued = page.getByRole('dialog', { name: 'Skill Agent was added' });
  const token = (await issued.getByLabel('Token').textContent())!.trim();
  await issued.getByRole('button', { name: 'Done' }).click();

  const client = new Client({ name: 'e2e-skills', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  try {
    expect(client.getServerCapabilities()?.extensions?.['io.modelcontextprotocol/skills']).toEqual({ directoryRead: true });
    const Listed = z.looseObject({
      skills: z.array(
        z.object({
          uri: z.string(),
          frontmatter: z.record(z.string(), z.unknown()),
          resources: z.array(z.looseObject({ uri: z.string(), digest: z.string() })),
        }),
      ),
    });
    const { skills } = await client.request({ method: 'skills/list', params: {} }, Listed);
    expect(skills.map((s) => s.uri)).toEqual(['switchboard://skills/skill://git-workflow/SKILL.md']);
    const skillMd = skills[0]!.resources.find((r) => r.uri.endsWith('/SKILL.md'))!;
    const read = await client.readResource({ uri: skillMd.uri });
    const text = (read.contents[0] as { text?: string }).text ?? '';
    expect(`sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`).toBe(skillMd.digest);
    expect(text).toContain('# Git workflow');
    // The tampered skill was never approved: the gateway does not serve its files.
    await expect(client.readResource({ uri: 'switchboard://skills/skill://tampered/scripts/run.sh' })).rejects.toThrow(/not approved/);
  } finally {
    await client.close();
  }
});

async function shots(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    for (const [width, height] of [
      [1400, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: join(SHOTS, `${name}-${colorScheme}-${width}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('directory and resources switch', () => {
  test.use({
    seed: {
      servers: [
        // 60 unlisted files under many/ besides two elsewhere: more than the tab lists, so the bound shows.
        fixture('skills-stdio.ts', 'skillsdir', 'Skill Directory', {
          SKILLS_FIXTURE_DIRECTORY_READ: '1',
          SKILLS_FIXTURE_UNLISTED: '1',
          SKILLS_FIXTURE_UNLISTED_COUNT: '60',
        }),
        { ...fixture('skills-stdio.ts', 'skillsoff', 'Skill Resources Off'), extra: { resources: false } },
      ],
    },
  });

  test('files on the server but not in the manifest are listed, marked, bounded and never verified', async ({ page }) => {
    await serverRow(page, 'Skill Directory').click();
    await expect(serverRow(page, 'Skill Directory')).toContainText('Connected', { timeout: 60_000 });
    await page.getByRole('tab', { name: 'Skills' }).click();
    await page.getByRole('list', { name: 'Skills' }).getByRole('listitem').filter({ hasText: 'git-workflow' }).click();
    const detail = page.getByTestId('skill-detail');
    // The manifest's files verify; the extra files do not change that, and are not part of it.
    await expect(detail.getByTestId('skill-verification')).toContainText('Verified');
    const extras = detail.getByTestId('skill-extra-file');
    await expect(extras.filter({ hasText: 'references/EXTRA.md' })).toBeVisible();
    await expect(extras.filter({ hasText: 'scripts/unlisted.sh' })).toBeVisible();
    await expect(extras).toHaveCount(10);
    await detail.getByRole('button', { name: 'Show all 50 files not in the manifest' }).click();
    await expect(extras).toHaveCount(50);
    for (const row of [extras.first(), extras.last()]) {
      await expect(row).toContainText('not in the manifest (not verified, not served)');
      await expect(row.getByRole('cell').nth(2)).toHaveText('unlisted');
      await expect(row.getByRole('button')).toHaveCount(0);
    }
    await expect(detail.getByTestId('skill-extras-note')).toContainText('There may be more');
    // The manifest's own rows stay verified and readable.
    const rows = detail.getByRole('table', { name: 'Skill files' }).getByRole('row');
    await expect(rows.filter({ hasText: 'references/CHECKLIST.md' })).toContainText('verified');
    await detail.getByRole('button', { name: 'Read references/CHECKLIST.md' }).click();
    await expect(detail.getByTestId('skill-file')).toContainText('CHECKLIST.md (verified)');
    await detail.getByRole('button', { name: 'Show fewer files not in the manifest' }).click();
    await expect(extras).toHaveCount(10);
    await detail.getByRole('table', { name: 'Skill files' }).scrollIntoViewIfNeeded();
    await shots(page, 'directory');
  });

  test('a server with resources turned off: the tab says so and reads no file', async ({ page }) => {
    await serverRow(page, 'Skill Resources Off').click();
    await expect(serverRow(page, 'Skill Resources Off')).toContainText('Connected', { timeout: 60_000 });
    await page.getByRole('tab', { name: 'Skills' }).click();
    await expect(page.getByTestId('skills-resources-off')).toContainText('Resources are turned off for this server');
    await page.getByRole('list', { name: 'Skills' }).getByRole('listitem').filter({ hasText: 'git-workflow' }).click();
    const detail = page.getByTestId('skill-detail');
    await expect(detail.getByRole('button', { name: 'Verify again' })).toBeDisabled();
    await expect(detail.getByRole('button', { name: 'Approve' })).toBeDisabled();
    await expect(detail.getByRole('button', { name: 'Read SKILL.md' })).toBeDisabled();
    await expect(detail.getByRole('button', { name: 'Read references/CHECKLIST.md' })).toBeDisabled();
    await expect(detail.getByTestId('skill-verification')).toHaveCount(0);
    await shots(page, 'resources-off');
  });
});
