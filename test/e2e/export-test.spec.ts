// "Export as Playwright test", end to end: calls made in a running Switchboard (against the published
// server-everything) are exported with calls.exportTest, and the spec it writes runs green with Playwright from a
// folder set up the way a tester's project is (switchboard installed under node_modules).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../../testing/index';
import { CHROMIUM_ARGS } from './playwright.config';

const root = fileURLToPath(new URL('../..', import.meta.url));
const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const playwrightCli = createRequire(import.meta.url).resolve('@playwright/test/cli');

/** A tester's project folder: its own package.json and config, switchboard and Playwright under node_modules. */
function testerProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-exported-'));
  mkdirSync(join(dir, 'node_modules', '@playwright'), { recursive: true });
  symlinkSync(root, join(dir, 'node_modules', 'switchboard'), 'dir');
  symlinkSync(join(root, 'node_modules', '@playwright', 'test'), join(dir, 'node_modules', '@playwright', 'test'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'tester-project', private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'playwright.config.ts'),
    [
      "import { defineConfig } from '@playwright/test';",
      'export default defineConfig({',
      "  testDir: 'tests',",
      '  timeout: 180_000,',
      '  expect: { timeout: 30_000 },',
      "  reporter: [['list']],",
      `  use: { launchOptions: { executablePath: ${JSON.stringify(process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium')}, args: ${JSON.stringify(CHROMIUM_ARGS)} } },`,
      '});',
      '',
    ].join('\n'),
  );
  mkdirSync(join(dir, 'tests'));
  return dir;
}

function runPlaywright(dir: string, env: Record<string, string>, files: string[] = []): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [playwrightCli, 'test', '--workers=1', ...files], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

test('saved server-everything calls exported as a Playwright spec run green', async ({ switchboard, bridge }) => {
  test.setTimeout(600_000);
  const connected = bridge.waitFor('servers.status', (s) => s.id === 'everything' && s.status.state === 'connected', { timeoutMs: 90_000 });
  await switchboard.setUpServer({
    id: 'everything',
    name: 'Everything',
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: [everything, 'stdio'],
      env: { EXPORT_CHECK: { secret: true, value: 's3cret-value' } },
    },
  });
  await connected;

  // A message no template may break: quotes, backticks, `${`, a comment end, line breaks and separators.
  const message = 'he said "hi" `${1+1}` */ \' \n next\u2028line';
  const echo = await bridge['tools.call']({ name: 'mcp__everything__echo', arguments: { message } });
  expect(echo.status).toBe('ok');
  // Shown text never carries a raw line separator (shared/untrusted-text.ts), so the result drops it; the saved
  // arguments keep it, and the exported spec must still hold it as a string literal.
  expect(echo.presentation.text).toBe(`Echo: ${message.replace('\u2028', '')}`);
  await bridge['calls.save']({ callId: echo.callId, name: 'Echo `a` "b" ${c}' });
  const weather = await bridge['tools.call']({ name: 'mcp__everything__get_structured_content', arguments: { location: 'Chicago' } });
  expect(weather.status).toBe('ok');
  await bridge['calls.save']({ callId: weather.callId, name: 'Chicago weather' });

  const single = await bridge['calls.exportTest']({ callIds: [echo.callId] });
  expect(single.fileName).toBe('echo-a-b-c.spec.ts');
  const collection = await bridge['calls.exportTest']({
    callIds: [echo.callId, weather.callId],
    assertions: [{ callId: weather.callId, fields: ['temperature', 'conditions'] }],
    title: 'Everything, saved',
  });
  expect(collection.text).not.toContain('s3cret-value');
  expect(collection.text).toContain('requireEnv("EXPORT_CHECK"');
  expect(collection.text).toContain('expect(structured["conditions"]).toEqual("Light rain / drizzle");');

  const dir = testerProject();
  try {
    writeFileSync(join(dir, 'tests', single.fileName), single.text);
    writeFileSync(join(dir, 'tests', collection.fileName), collection.text);
    // Without the secret, the spec stops with a message naming the variable.
    const missing = await runPlaywright(dir, { EXPORT_CHECK: '' }, [`tests/${single.fileName}`]);
    expect(missing.code, missing.output).not.toBe(0);
    expect(missing.output).toContain('Set the environment variable EXPORT_CHECK');
    // With it, all three tests pass.
    const green = await runPlaywright(dir, { EXPORT_CHECK: 'any-value' });
    expect(green.code, green.output).toBe(0);
    expect(green.output).toMatch(/3 passed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
