// The core in its own process, as a person meets it: while they look at a server's page the core is killed (-9).
// One notice says so with the log path, the server comes back connected, and it is the same page: no reload.
import { listProcesses } from '../../testing/process-tree';
import { expect, test } from './support/fixture';
import { fixture } from './support/seed';
import { connectionStatus, serverRow } from './support/ui';

/** The shell's child running the core's bundle. */
function corePid(shell: number): number | undefined {
  return listProcesses().find((p) => p.ppid === shell && p.state !== 'Z' && p.command.includes('core.mjs'))?.pid;
}

test.use({ seed: { servers: [fixture('echo-stdio.ts', 'echo', 'Echo fixture')] } });

test('kill -9 of the core while a server page is open: one notice, the page carries on without a reload', async ({
  switchboard,
  page,
}, info) => {
  test.skip(info.project.name !== 'headless', 'the desktop app keeps its core in the main process for now');
  await serverRow(page, 'Echo fixture').click();
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 45_000 });
  // A mark on this document: a reload would lose it.
  await page.evaluate(() => Object.assign(globalThis, { sbSameDocument: true }));

  await expect.poll(() => corePid(switchboard.pid)).toBeGreaterThan(0);
  const core = corePid(switchboard.pid)!;
  process.kill(core, 'SIGKILL');

  const notices = page.getByRole('region', { name: 'Notices' });
  await expect(notices).toContainText("Switchboard's core stopped (killed by SIGKILL) and was restarted", { timeout: 30_000 });
  await expect(notices).toContainText('shell.log');
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 45_000 });
  await expect.poll(() => corePid(switchboard.pid)).not.toBe(core);
  expect(await page.evaluate(() => (globalThis as { sbSameDocument?: boolean }).sbSameDocument)).toBe(true);
  await expect(page.getByText(/core stopped .*restarting/)).toHaveCount(0);
});
