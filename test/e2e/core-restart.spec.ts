// The core in its own process, as a person meets it: while they look at a server's page the core is killed (-9).
// One notice says so with the log path, the server comes back connected, and it is the same page: no reload.
import { listProcesses } from '../../testing/process-tree';
import { expect, test } from './support/fixture';
import { fixture } from './support/seed';
import { connectionStatus, serverRow } from './support/ui';

/**
 * The shell's core process: headless forks the core's bundle; the desktop app starts it as an Electron utility
 * process (Node service), a descendant of main.
 */
function corePid(shell: number): number | undefined {
  const all = listProcesses().filter((p) => p.state !== 'Z');
  const descendants = new Set([shell]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) if (descendants.has(p.ppid) && !descendants.has(p.pid)) grew = descendants.add(p.pid) !== undefined;
  }
  return all.find(
    (p) => p.pid !== shell && descendants.has(p.pid) && (p.command.includes('core.mjs') || p.command.includes('node.mojom.NodeService')),
  )?.pid;
}

test.use({ seed: { servers: [fixture('echo-stdio.ts', 'echo', 'Echo fixture')] } });

test('kill -9 of the core while a server page is open: one notice, the page carries on without a reload', async ({ switchboard, page }) => {
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
