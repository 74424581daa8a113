// Start-up benchmark (issue 28): headless Switchboard from spawn to its printed address, to the first paint of its
// page in Chromium (the views' navigation on screen), and to a working page (the view's content, mounted once the core
// answered), against a baseline started the same way in interleaved
// rounds: by default a trivial Node page server (the floor of any launcher), or with `--against DIR` another built
// checkout's launcher (before/after a change). Median and spread of both figures and of the per-round ratios.
// Needs `npm run build` and Chromium. Targets: address <= 0.6 s, first paint <= 1.2 s (the working page is reported).
// Run: npm run bench -- startup   (prints figures; not part of npm test)
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { loadLine, maxOf, median } from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const root = fileURLToPath(new URL('..', import.meta.url));

// The floor: a Node process that listens on 127.0.0.1, prints its address and serves one tiny page.
const TRIVIAL = `
const http = require('node:http');
const page = '<!doctype html><html><body><nav aria-label="Views"><a href="#">Servers</a></nav><main id="main-content"></main></body></html>';
const server = http.createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(page));
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port + '/' }) + '\\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

interface Launcher {
  name: string;
  args(dataDir: string): string[];
}

const headless = (name: string, dir: string): Launcher => ({
  name,
  args: (dataDir) => [join(dir, 'dist', 'electron', 'headless.mjs'), '--data-dir', dataDir, '--port', '0', '--json'],
});

/** One start: ms from spawn to the address line, to the first paint of the page at that address, to its content. */
async function once(browser: Browser, launcher: Launcher): Promise<{ url: number; paint: number; content: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-bench-start-'));
  const t0 = performance.now();
  const proc = spawn(process.execPath, launcher.args(dataDir), {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, SWITCHBOARD_CREDENTIALS: 'memory' },
  });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: proc.stdout! }).once('line', resolve);
      proc.once('exit', (code) => reject(new Error(`${launcher.name} exited with ${String(code)} before printing its address`)));
    });
    const url = performance.now() - t0;
    const page = await browser.newPage();
    try {
      await page.goto((JSON.parse(line) as { url: string }).url);
      const painted = (): Promise<unknown> =>
        page.evaluate('new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))');
      await page.locator('nav[aria-label="Views"]').waitFor({ timeout: 60_000 });
      await painted();
      const paint = performance.now() - t0;
      // The view's own content mounts only once the bridge answered (the core is up): a page a person can use.
      await page.locator('#main-content').waitFor({ state: 'attached', timeout: 60_000 });
      await painted();
      return { url, paint, content: performance.now() - t0 };
    } finally {
      await page.close();
    }
  } finally {
    proc.kill('SIGTERM');
    await exited;
  }
}

function summary(label: string, a: number[], b: number[], names: [string, string]): void {
  const ratios = a.map((x, i) => b[i]! / x);
  const s = (xs: number[]): string =>
    `${(median(xs) / 1000).toFixed(2)} s (${(Math.min(...xs) / 1000).toFixed(2)}–${(maxOf(xs) / 1000).toFixed(2)})`;
  console.log(
    `${label}: ${names[0]} ${s(a)}, ${names[1]} ${s(b)}; ${names[1]} / ${names[0]} = ${median(ratios).toFixed(2)}× ` +
      `(range ${Math.min(...ratios).toFixed(2)}–${maxOf(ratios).toFixed(2)}×, ${a.length} interleaved rounds, ${loadLine()})`,
  );
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--against');
  const baseline: Launcher =
    at > 0 && process.argv[at + 1] ? headless('before', process.argv[at + 1]!) : { name: 'trivial page', args: () => ['-e', TRIVIAL] };
  const subject = headless(at > 0 ? 'after' : 'Switchboard headless', root);
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const a = { url: [] as number[], paint: [] as number[], content: [] as number[] };
  const b = { url: [] as number[], paint: [] as number[], content: [] as number[] };
  try {
    await once(browser, subject); // warm the file cache and Chromium once, unmeasured
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? [baseline, subject] : [subject, baseline];
      for (const l of order) {
        const f = await once(browser, l);
        const into = l === baseline ? a : b;
        into.url.push(f.url);
        into.paint.push(f.paint);
        into.content.push(f.content);
      }
    }
  } finally {
    await browser.close();
  }
  summary('spawn to address (target <= 0.6 s)', a.url, b.url, [baseline.name, subject.name]);
  summary('spawn to first paint (target <= 1.2 s)', a.paint, b.paint, [baseline.name, subject.name]);
  summary('spawn to a working page (core answered)', a.content, b.content, [baseline.name, subject.name]);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
