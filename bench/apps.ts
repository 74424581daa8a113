// `npm run bench -- apps`: time from a tool result to the app's first ui/notifications/initialized, for the published
// server-basic-react app (run with --stdio), in headless mode with real Chromium; target <= 500 ms median. The
// baseline, interleaved round by round in the same run: the same app HTML in a bare page that runs AppBridge over one
// sandboxed srcdoc iframe with the same full host context Switchboard sends (every style variable, fonts, locale,
// device, insets; built by the renderer's own buildHostContext), but no core round trip, sandbox proxy or checks. So
// the ratio is what Switchboard's safety and plumbing cost at that context size.
import type { Browser } from '@playwright/test';
import { build } from 'esbuild';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioTransportSchema } from '../shared/config.js';
import { launchFingerprint } from '../electron/core/servers/approval.js';
import { interleave, loadLine, median, startHeadlessApp, tempDir } from './support.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 10);
const TARGET_MS = 500;
const reactDir = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-basic-react'));

/** The baseline page's script: AppBridge over a PostMessageTransport to one sandboxed srcdoc iframe. */
const BARE_ENTRY = (root: string): string => `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { buildHostContext } from ${JSON.stringify(join(root, 'renderer/src/apps/host-context.ts'))};
import { theme } from ${JSON.stringify(join(root, 'renderer/src/ui/theme.ts'))};
const launch = {
  call: { callId: 'bench' },
  toolInfo: { name: 'get_time', description: 'Get the current time', inputSchema: { type: 'object', properties: {} } },
};
const context = () => buildHostContext({
  launch, theme: 'light', mantine: mergeMantineTheme(DEFAULT_THEME, theme), displayMode: 'inline',
  availableDisplayModes: ['inline', 'fullscreen', 'pip'], width: 800, height: { max: 600 }, shell: 'websocket', version: 'bench',
});
window.contextBytes = () => JSON.stringify(context()).length;
window.contextVariables = () => Object.keys(context().styles.variables).length;
window.bare = (html) => new Promise((resolve) => {
  const start = performance.now();
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts allow-forms');
  iframe.style.cssText = 'width:800px;height:400px;border:0';
  document.body.appendChild(iframe);
  const bridge = new AppBridge(null, { name: 'bare', version: '1' }, { serverTools: {} }, { hostContext: context() });
  bridge.addEventListener('initialized', () => {
    const ms = performance.now() - start;
    bridge.close().finally(() => { iframe.remove(); resolve(ms); });
  });
  bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow)).then(() => { iframe.srcdoc = html; });
});
`;

/** One side of the comparison, set up once: `once` takes one sample (ms), `close` ends what set-up started. */
interface Measured {
  once(): Promise<number>;
  close(): Promise<void>;
}

async function bare(browser: Browser): Promise<Measured & { contextBytes: number; contextVariables: number }> {
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, '.tmp', 'bench-apps-'));
  writeFileSync(join(dir, 'entry.ts'), BARE_ENTRY(root));
  await build({
    entryPoints: [join(dir, 'entry.ts')],
    outfile: join(dir, 'bare.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  const script = readFileSync(join(dir, 'bare.js'));
  const server = createServer((req, res) => {
    if (req.url === '/bare.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><body><script src="/bare.js"></script></body>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  const html = readFileSync(join(reactDir, 'mcp-app.html'), 'utf8');
  const run = `window.bare(${JSON.stringify(html)})`;
  await page.evaluate(run); // warm-up
  return {
    contextBytes: (await page.evaluate('window.contextBytes()')) as number,
    contextVariables: (await page.evaluate('window.contextVariables()')) as number,
    once: async () => (await page.evaluate(run)) as number,
    close: async () => {
      await page.close();
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
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

async function switchboard(browser: Browser): Promise<Measured> {
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
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await page.goto(host.url);
    // The tool's deep link; its form shows once the server is connected and the catalog has the tool (and its app).
    await page.evaluate(`location.hash = '#/servers/react/tools/mcp__react__get_time'`);
    await page.getByRole('region', { name: 'Call tool' }).waitFor({ timeout: 60_000 });
    await page.evaluate(MEASURE); // warm-up (connects the server, loads the bundle paths)
  } catch (err) {
    await page.close();
    await host.stop();
    throw err;
  }
  return {
    once: async () => (await page.evaluate(MEASURE)) as number,
    close: async () => {
      await page.close();
      await host.stop();
    },
  };
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
    const ours = await switchboard(browser).catch(async (err: unknown) => {
      await base.close();
      throw err;
    });
    const samples: number[] = [];
    try {
      console.log(
        `server-basic-react app (${(readFileSync(join(reactDir, 'mcp-app.html')).length / 1024).toFixed(0)} KiB of HTML), ` +
          `host context ${base.contextBytes} bytes with ${base.contextVariables} style variables, Chromium headless:`,
      );
      const result = await interleave(
        '  tool result to ui/notifications/initialized',
        ROUNDS,
        { name: 'bare AppBridge', run: () => base.once() },
        {
          name: 'Switchboard',
          run: async () => {
            const ms = await ours.once();
            samples.push(ms);
            return ms;
          },
        },
      );
      const list = samples.map((x) => x.toFixed(0)).join(', ');
      console.log(
        `  Switchboard: median ${median(samples).toFixed(0)} ms, range ${Math.min(...samples).toFixed(0)}–${Math.max(...samples).toFixed(0)} ms [${list}]; ` +
          `target <= ${TARGET_MS} ms: ${result.b <= TARGET_MS ? 'met' : 'MISSED'} (${loadLine()} at the end)`,
      );
    } finally {
      await ours.close();
      await base.close();
    }
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
