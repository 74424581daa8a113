// The Settings view shows where this Switchboard keeps its data and its log (as the core reports them), how secrets
// are kept, and passes an accessibility check; its deep link works. Server processes an earlier run left behind are
// listed by command line and ended after a confirmation.
import AxeBuilder from '@axe-core/playwright';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processStartToken } from '../../electron/core/storage/data-lock';
import { expect, test } from './support/fixture';
import { shots } from './support/shots';

test('shows the data folder, the log file and the credential store, accessibly', async ({ switchboard, page }) => {
  const dataDir = switchboard.dataDir;
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/#\/settings$/);
  const view = page.getByTestId('settings-view');
  await expect(view.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(view.getByText(dataDir, { exact: true })).toBeVisible();
  await expect(view.getByText(join(dataDir, 'logs', 'switchboard.log'), { exact: true })).toBeVisible();
  await expect(view.getByRole('button', { name: 'Copy the log file path' })).toBeVisible();
  await expect(view.getByText('Memory only')).toBeVisible();
  await expect(view.getByText(switchboard.shell === 'electron' ? 'Desktop app' : 'Headless, in this browser')).toBeVisible();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const axe = await new AxeBuilder({ page }).include('[data-testid="settings-view"]').analyze();
    const found = axe.violations.map(
      (v) => `${colorScheme} ${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join(' | ')}`,
    );
    expect(found).toEqual([]);
  }
});

/** A process an earlier run left behind. */
interface Leftover {
  pid: number;
  child: ChildProcess;
  exited: Promise<unknown>;
}

const withLeftover = test.extend<{ leftover: Leftover }>({
  // A process in a group of its own (killed at the end if it still runs).
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its parameter list
  leftover: async ({}, use) => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)', '--', 'leftover-marker'], {
      detached: true,
      stdio: 'ignore',
    });
    await new Promise((r) => child.once('spawn', r));
    const pid = child.pid!;
    const exited = new Promise((r) => child.once('exit', r));
    try {
      await use({ pid, child, exited });
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-pid, 'SIGKILL');
    }
  },
  // Recorded as a server the previous run started (as a crash leaves it), before Switchboard starts on the folder.
  switchboardDataDir: async ({ switchboardDataDir, leftover }, use) => {
    const { pid } = leftover;
    writeFileSync(
      join(switchboardDataDir, 'processes.json'),
      JSON.stringify({
        groups: [
          {
            pgid: pid,
            pid,
            serverId: 'files',
            command: 'npx -y @modelcontextprotocol/server-filesystem /home/me/projects',
            startedAt: new Date().toISOString(),
            startTicks: processStartToken(pid),
            bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
          },
        ],
      }),
    );
    await use(switchboardDataDir);
  },
});

withLeftover(
  'lists server processes from an earlier run by command line and ends them after a confirmation',
  async ({ page, leftover }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.getByRole('link', { name: 'Settings' }).click();
    const section = page.getByTestId('leftover-processes');
    await expect(section.getByRole('heading', { name: 'Processes from an earlier run' })).toBeVisible();
    await expect(section.getByText('npx -y @modelcontextprotocol/server-filesystem /home/me/projects')).toBeVisible();
    const axe = await new AxeBuilder({ page }).include('[data-testid="leftover-processes"]').analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    await page.screenshot({ path: withLeftover.info().outputPath('leftovers-1400.png'), fullPage: true });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: withLeftover.info().outputPath('leftovers-1024.png'), fullPage: true });

    await section.getByRole('button', { name: 'End them' }).click();
    const dialog = page.getByRole('dialog', { name: 'End the processes from an earlier run?' });
    await expect(dialog).toBeVisible();
    await page.waitForTimeout(400); // the dialog's entry transition, for a sharp screenshot only
    await page.screenshot({ path: withLeftover.info().outputPath('leftovers-confirm.png') });
    await dialog.getByRole('button', { name: 'End them' }).click();
    await leftover.exited;
    await expect(section).toHaveCount(0);
    expect(leftover.child.signalCode).toBe('SIGTERM');
  },
);

test('saves an OTLP endpoint, refuses one that is not http(s), and says when it applies', async ({ switchboard, page }) => {
  await page.getByRole('link', { name: 'Settings' }).click();
  const tracing = page.getByTestId('tracing-settings');
  await expect(tracing.getByText('never tool arguments, results or secrets', { exact: false })).toBeVisible();
  await expect(tracing.getByTestId('tracing-status')).toHaveText('Traces are off in this run.');
  const field = tracing.getByRole('textbox', { name: 'OTLP/HTTP endpoint' });

  await field.fill('ftp://127.0.0.1:4318');
  await tracing.getByRole('switch', { name: 'Send traces' }).check();
  await tracing.getByRole('button', { name: 'Save tracing' }).click();
  await expect(field).toHaveAccessibleDescription(/must be http or https, not ftp/);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  // Scrolled to the section for the screenshots.
  await tracing.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shots(page, 'settings-tracing-refused');
  // The refusal's text is readable in both schemes.
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const axe = await new AxeBuilder({ page }).include('[data-testid="tracing-settings"]').analyze();
    expect(axe.violations.map((v) => `${colorScheme} ${v.id}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });

  await field.fill('http://127.0.0.1:4318');
  await tracing.getByRole('button', { name: 'Save tracing' }).click();
  await expect(tracing.getByTestId('tracing-status')).toHaveText('Traces are being sent in this run.');
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
  const file = JSON.parse(readFileSync(join(switchboard.dataDir, 'config.json'), 'utf8')) as { telemetry?: unknown };
  expect(file.telemetry).toEqual({ otlpEndpoint: 'http://127.0.0.1:4318' });
  await tracing.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shots(page, 'settings-tracing-saved');

  // A reload reads the saved setting back from the core.
  await page.reload();
  await expect(page.getByTestId('tracing-settings').getByRole('textbox', { name: 'OTLP/HTTP endpoint' })).toHaveValue(
    'http://127.0.0.1:4318',
  );
  await expect(page.getByTestId('tracing-settings').getByRole('switch', { name: 'Send traces' })).toBeChecked();
});
