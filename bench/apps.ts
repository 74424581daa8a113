// `npm run bench -- apps`: time from a tool result to the app's first ui/notifications/initialized, for the published
// server-basic-react app, in headless mode with real Chromium (median of 10; target <= 500 ms). The baseline in the
// same run: the same app HTML in a bare page that runs AppBridge over one sandboxed srcdoc iframe (no core round
// trip, no sandbox proxy, no checks), so the ratio is what Switchboard's safety and plumbing cost.
import type { Browser } from '@playwright/test';
import { build } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioTransportSchema } from '../shared/config.js';
import { launchFingerprint } from '../electron/core/servers/approval.js';
import { median, startHeadlessApp, tempDir } from './support.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 10;
const TARGET_MS = 500;
const reactDir = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-basic-react'));

/** The baseline page's script: AppBridge over a PostMessageTransport to one sandboxed srcdoc iframe. */
const BARE_ENTRY = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
window.bare = (html) => new Promise((resolve) => {
  const start = performance.now();
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts allow-forms');
  iframe.style.cssText = 'width:800px;height:400px;border:0';
  document.body.appendChild(iframe);
  const bridge = new AppBridge(null, { name: 'bare', version: '1' }, { serverTools: {} }, { hostContext: { theme: 'light' } });
  bridge.addEventListener('initialized', () => {
    const ms = performance.now() - start;
    bridge.close().finally(() => { iframe.remove(); resolve(ms); });
  });
  bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow)).then(() => { iframe.srcdoc = html; });
});
`;

async function bare(browser: Browser): Promise<number[]> {
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, '.tmp', 'bench-apps-'));
  writeFileSync(join(dir, 'entry.js'), BARE_ENTRY);
  await build({
    entryPoints: [join(dir, 'entry.js')],
    outfile: join(dir, 'bare.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    logLevel: 'error',
  });
  const script = readFileSync(join(dir, 'bare.js'));
  const server = createServer((req, res) => {
    if (req.url === '/bare.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><body><script src="/bare.js"></script></body>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const html = readFileSync(join(reactDir, 'mcp-app.html'), 'utf8');
    const samples: number[] = [];
    await page.evaluate(`window.bare(${JSON.stringify(html)})`); // warm-up
    for (let i = 0; i < ROUNDS; i++) samples.push((await page.evaluate(`window.bare(${JSON.stringify(html)})`)) as number);
    await page.close();
    return samples;
  } finally {
    server.close();
  }
}

/** One call of the open tool: ms from its result appearing to the app saying it is initialized (badge "running"). */
const MEASURE = `new Promise((resolve, reject) => {
  const panel = document.querySelector('[aria-label="Call tool"]');
  let phase = 'running';
  let t0 = 0;
  const timer = setTimeout(() => reject(new Error('no initialized app within 30 s (phase ' + phase + ')')), 30000);
  const check = () => {
    const result = document.querySelector('[aria-label="Call result"]');
    if (phase === 'running' && !result) phase = 'waiting';
    if (phase === 'waiting' && result) { phase = 'result'; t0 = performance.now(); }
    if (phase === 'result' && result && result.querySelector('[data-testid="app-status"]')) {
      obs.disconnect();
      clearTimeout(timer);
      resolve(performance.now() - t0);
    }
  };
  const obs = new MutationObserver(check);
  obs.observe(document.body, { childList: true, subtree: true, attributes: true });
  [...panel.querySelectorAll('button')].find((b) => b.textContent === 'Call').click();
})`;

async function switchboard(browser: Browser): Promise<number[]> {
  const dataDir = tempDir();
  const server = {
    id: 'react',
    name: 'Basic React',
    transport: StdioTransportSchema.parse({
      type: 'stdio',
      command: process.execPath,
      args: [join(reactDir, 'index.js'), '--stdio'],
      env: {},
    }),
    lifecycle: 'initialize',
  };
  writeFileSync(
    join(dataDir, 'config.json'),
    JSON.stringify({ schemaVersion: 1, servers: [server], approvals: { react: launchFingerprint(server.transport) }, demoOffered: true }),
  );
  const host = await startHeadlessApp(dataDir);
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(host.url);
    // The tool's deep link; its form shows once the server is connected and the catalog has the tool (and its app).
    await page.evaluate(`location.hash = '#/servers/react/tools/mcp__react__get_time'`);
    await page.getByRole('region', { name: 'Call tool' }).waitFor({ timeout: 60_000 });
    await page.evaluate(MEASURE); // warm-up (connects the server, loads the bundle paths)
    const samples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) samples.push((await page.evaluate(MEASURE)) as number);
    await page.close();
    return samples;
  } finally {
    await host.stop();
  }
}

async function main(): Promise<void> {
  const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) {
    console.log(`apps: skipped (no Chromium at ${chromiumPath})`);
    return;
  }
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const base = await bare(browser);
    const ours = await switchboard(browser);
    const mb = median(base);
    const mo = median(ours);
    const list = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(', ');
    console.log(
      `server-basic-react app (${(readFileSync(join(reactDir, 'mcp-app.html')).length / 1024).toFixed(0)} KiB of HTML), ${ROUNDS} rounds, Chromium headless:`,
    );
    console.log(`  bare AppBridge + srcdoc iframe, to initialized:        median ${mb.toFixed(0)} ms  [${list(base)}]`);
    console.log(
      `  Switchboard, tool result to ui/notifications/initialized: median ${mo.toFixed(0)} ms  [${list(ours)}]  (${(mo / mb).toFixed(2)}x bare; target <= ${TARGET_MS} ms: ${mo <= TARGET_MS ? 'met' : 'MISSED'})`,
    );
  } finally {
    await browser.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
