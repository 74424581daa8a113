// A server added as Streamable HTTP whose address is a legacy HTTP+SSE endpoint (a real v1-SDK SSE server on
// 127.0.0.1 that answers the Streamable HTTP POST with 405): the failure's hint offers switching the transport to
// SSE, and one click switches it and connects.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { expect, test } from './support/fixture';
import { root } from './support/seed';
import { shots } from './support/shots';
import { connectionStatus, serverRow } from './support/ui';

let child: ChildProcess | undefined;

function startSse(): Promise<string> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/fixtures/servers/sse-legacy.ts'), '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child = proc;
  return new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
    proc.once('exit', (code) => reject(new Error(`fixture exited with ${String(code)}`)));
  });
}

test.afterEach(async () => {
  const proc = child;
  child = undefined;
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  proc.kill('SIGTERM');
  await exited;
});

test('Streamable HTTP against a legacy SSE endpoint: one click switches to SSE and connects', async ({ switchboard, page }) => {
  const url = await startSse();
  await switchboard.bridge['servers.add']({
    config: { id: 'old', name: 'Old SSE', startup: 'manual', transport: { type: 'http', url } },
  });
  await serverRow(page, 'Old SSE').click();
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const offer = page.getByTestId('switch-to-sse');
  await expect(offer).toContainText('This may be a legacy SSE server', { timeout: 45_000 });
  await expect(page.getByTestId('doctor')).toBeVisible();
  await shots(page, 'switch-to-sse');

  await offer.getByRole('button', { name: 'Switch to SSE and connect' }).click();
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 45_000 });
  await expect(offer).toHaveCount(0);
  const detail = await switchboard.bridge['servers.get']({ id: 'old' });
  expect(detail.transport).toBe('sse');
  expect(detail.config.transport.type === 'sse' && detail.config.transport.url).toBe(url);
});
