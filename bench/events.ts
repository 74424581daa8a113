// Events benchmark (not part of npm test): push throughput from the events fixture (bundled, over stdio) into the
// stored feed — 100,000 events through the host's push subscription — against two baselines measured in the same
// rounds, interleaved: a raw append of the same events as JSON lines to a file (what storing costs with nothing
// else), and a raw pipe that only counts the same notifications (the emitter's own ceiling; once from a fast
// emitter, once from one SDK send per event). Medians and spread (min–max) are printed, with the host process's RSS
// growth per round; then the Events view's first paint in Chromium with 10,000 stored entries (skip with
// `--no-paint`).
//   node --expose-gc --import tsx bench/events.ts [--count N] [--rounds N] [--no-paint] [--no-throughput]
import { createWriteStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { FeedStore } from '../electron/core/events/feed-store.js';
import { checkOccurrence, isRefused } from '../electron/core/events/payload.js';
import { addStdio, benchHost, bundleFixture, median, startHeadlessApp, tempDir } from './support.js';

const args = process.argv.slice(2);
const COUNT = Number(args[args.indexOf('--count') + 1]) || 100_000;
const ROUNDS = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) || 3 : 3;
const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;
const rate = (n: number, ms: number): string => `${Math.round((n / ms) * 1000).toLocaleString('en-US')} events/s`;

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function dirBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const f of readdirSync(dir)) n += statSync(join(dir, f)).size;
  return n;
}

/** Spread of samples as `min–max`, formatted by `fmt`. */
function spread(xs: number[], fmt: (x: number) => string): string {
  return `${fmt(Math.min(...xs))} – ${fmt(Math.max(...xs))}`;
}

/** Baseline: the same events (the fixture's shape) appended as JSON lines to a file, flushed to disk. */
async function rawAppend(): Promise<number> {
  const file = join(tempDir(), 'raw.jsonl');
  const out = createWriteStream(file);
  const t0 = performance.now();
  const start = Date.now();
  for (let i = 1; i <= COUNT; i++) {
    const line = `${JSON.stringify({
      eventId: `evt-${i}`,
      name: 'tick.push',
      timestamp: new Date(start + i).toISOString(),
      data: { n: i },
      cursor: String(i),
    })}\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return performance.now() - t0;
}

/** Baseline: the same flood read from a raw pipe, lines counted, nothing parsed (the emitter's own ceiling). */
function rawPipe(script: string, raw: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...process.env, EVENTS_FIXTURE_RAW_STDOUT: '1' },
    });
    const send = (m: unknown): boolean => child.stdin.write(`${JSON.stringify(m)}\n`);
    let buf = '';
    let events = 0;
    let t0 = 0;
    child.on('error', reject);
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the raw pipe saw ${events} of ${COUNT} events`));
    }, 600_000);
    timer.unref();
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.includes('"notifications/events/event"')) {
          events++;
          if (events === COUNT) {
            const elapsed = performance.now() - t0;
            clearTimeout(timer);
            child.once('exit', () => resolve(elapsed));
            child.kill();
          }
        } else if (/"id":0[,}]/.test(line) && line.includes('"result"')) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 1, method: 'events/stream', params: { name: 'tick.push', arguments: {}, cursor: null } });
          setTimeout(() => {
            t0 = performance.now();
            send({
              jsonrpc: '2.0',
              id: 2,
              method: 'tools/call',
              params: { name: 'flood', arguments: { name: 'tick.push', count: COUNT, raw } },
            });
          }, 300);
        }
      }
    });
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
  });
}

/** Switchboard: a push subscription through the host; done when every event is stored and on disk. */
async function hosted(
  script: string,
  raw: boolean,
): Promise<{ elapsed: number; rssBefore: number; rssAfter: number; heapAfter: number; feedBytes: number }> {
  const dir = tempDir();
  const host = benchHost(dir);
  await addStdio(host, 'ev', script, { lifecycle: 'initialize' });
  const config = host.config('ev');
  if (config.transport.type === 'stdio')
    await host.update('ev', { ...config, transport: { ...config.transport, env: { EVENTS_FIXTURE_RAW_STDOUT: '1' } } });
  await host.approve('ev', (await host.get('ev')).approval?.fingerprint ?? '');
  await host.sessions.connect('ev');
  const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.push', arguments: {}, mode: 'push' });
  const view = () => host.mcpEvents.subscriptions().find((s) => s.id === sub.id)!;
  await until(() => view().status.state === 'streaming', 30_000, 'the stream');
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const client = await host.sessions.client('ev');
  const t = performance.now();
  await client.callTool({ name: 'flood', arguments: { name: 'tick.push', count: COUNT, raw } }, { timeout: 600_000 });
  await until(() => view().status.received >= COUNT, 600_000, 'every event stored').catch((err: unknown) => {
    const lines = host.logs('ev').map((l) => l.text);
    throw new Error(`${String(err)}; status ${JSON.stringify(view().status)}; log: ${lines.slice(-10).join(' | ')}`);
  });
  await host.mcpEvents.flush();
  const elapsed = performance.now() - t;
  global.gc?.();
  const mem = process.memoryUsage();
  const feedBytes = dirBytes(join(dir, 'events', 'feed'));
  await host.shutdown();
  return { elapsed, rssBefore, rssAfter: mem.rss, heapAfter: mem.heapUsed, feedBytes };
}

async function main(): Promise<void> {
  const script = await bundleFixture('test/fixtures/servers/events-stdio.ts');
  for (const [raw, rounds, label] of args.includes('--no-throughput')
    ? []
    : ([
        [true, ROUNDS, 'fast emitter (notifications written to stdout in 2,000-line chunks)'],
        [false, 1, 'SDK emitter (one SDK notification send per event)'],
      ] as const)) {
    const append: number[] = [];
    const pipe: number[] = [];
    const runs: Awaited<ReturnType<typeof hosted>>[] = [];
    const loads: number[] = [];
    // Interleaved: each round runs the three in turn, so a busy moment on the shared machine hits all of them.
    for (let r = 0; r < rounds; r++) {
      append.push(await rawAppend());
      pipe.push(await rawPipe(script, raw));
      runs.push(await hosted(script, raw));
      loads.push(loadavg()[0] ?? NaN);
    }
    const a = median(append);
    const b = median(pipe);
    const elapsed = runs.map((x) => x.elapsed);
    const h = median(elapsed);
    const growth = runs.map((x) => ((x.rssAfter - x.rssBefore) * 100_000) / COUNT);
    const last = runs.at(-1)!;
    const r = (ms: number): string => rate(COUNT, ms);
    // Spread in events/s, slowest first (the shortest time is the highest rate).
    const rs = (ms: number[]): string =>
      spread(
        ms.map((x) => (COUNT / x) * 1000),
        (v) => `${Math.round(v).toLocaleString('en-US')} events/s`,
      );
    console.log(
      `\npush throughput, ${COUNT.toLocaleString('en-US')} events, bundled stdio fixture (2025-11-25), ${label}, ${rounds} interleaved round(s), median (spread min – max):`,
    );
    console.log(`  baseline A: raw append of the same events to a file:  ${r(a)}  (${rs(append)})`);
    console.log(`  baseline B: raw pipe, lines counted only:             ${r(b)}  (${rs(pipe)})`);
    console.log(
      `  Switchboard push -> stored feed (on disk):            ${r(h)}  (${rs(elapsed)}); ${(a / h).toFixed(2)}x A's rate, ${(b / h).toFixed(2)}x B's; target >= 5,000 events/s`,
    );
    console.log(
      `  host RSS growth per 100k events: median ${mib(median(growth))} (${spread(growth, mib)}); target <= 100 MiB. Last round: RSS before ${mib(last.rssBefore)}, after ${mib(last.rssAfter)}, heap used after ${mib(last.heapAfter)}, feed files ${mib(last.feedBytes)}`,
    );
    console.log(`  load average (1 min) after each round: ${loads.map((l) => l.toFixed(1)).join(', ')} (2 cores, shared)`);
  }
  if (args.includes('--no-paint')) console.log('\nevents view first paint: skipped (--no-paint)');
  else await paint();
}

/** Writes `n` stored occurrences (with some activity) into a feed folder, as a long-running install would have. */
async function seedFeed(dir: string, n: number): Promise<void> {
  const feed = new FeedStore({ dir });
  feed.load();
  const start = Date.now() - n * 1000;
  for (let i = 1; i <= n; i++) {
    if (i % 100 === 0)
      feed.appendNote({ kind: 'activity', serverId: 'srv-b', activity: 'tools-changed', message: 'The tool list changed' });
    const occ = checkOccurrence(
      {
        eventId: `evt-${i}`,
        name: i % 3 === 0 ? 'incident.created' : 'email.received',
        timestamp: new Date(start + i * 1000).toISOString(),
        data: {
          messageId: `msg_${i}`,
          from: `user${i % 50}@example.com`,
          subject: `Subject line number ${i}`,
          severity: i % 2 ? 'low' : 'high',
        },
      },
      'email.received',
      Date.now(),
    );
    if (isRefused(occ)) throw new Error(occ.reason);
    feed.appendEvent(i % 2 ? 'srv-a' : 'srv-b', i % 2 ? 'sub-a' : 'sub-b', occ);
  }
  await feed.flush();
}

/** First paint of the Events view with 10,000 stored entries (Chromium, headless). */
async function paint(): Promise<void> {
  const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) {
    console.log(`\nevents view first paint: skipped (no Chromium at ${chromiumPath})`);
    return;
  }
  const { chromium } = await import('@playwright/test');
  const dataDir = tempDir();
  mkdirSync(join(dataDir, 'events', 'feed'), { recursive: true });
  await seedFeed(join(dataDir, 'events', 'feed'), 10_000);
  const host = await startHeadlessApp(dataDir);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(host.url);
    await page.getByRole('navigation').first().waitFor();
    // The same switch to the (empty) History view is the baseline measured in the same run.
    const time = (hash: string, selector: string): Promise<number> =>
      page.evaluate(`new Promise((resolve, reject) => {
        const start = performance.now();
        location.hash = '${hash}';
        const check = () => {
          if (document.querySelector('${selector}')) requestAnimationFrame(() => resolve(performance.now() - start));
          else if (performance.now() - start > 30000) reject(new Error('${selector} did not appear within 30 s'));
          else setTimeout(check, 1);
        };
        check();
      })`) as Promise<number>;
    const samples: number[] = [];
    const baseline: number[] = [];
    const heading: number[] = [];
    for (let i = 0; i < 7; i++) {
      await page.evaluate(`location.hash = '#/servers'`);
      await page.waitForTimeout(300);
      baseline.push(await time('#/history', '#history-title'));
      await page.evaluate(`location.hash = '#/servers'`);
      await page.waitForTimeout(300);
      // A string, not a function: tsx would wrap named inner functions with a helper the page does not have.
      samples.push(await time('#/events', '[data-testid="feed-row"]'));
      await page.evaluate(`location.hash = '#/servers'`);
      await page.waitForTimeout(300);
      heading.push(await time('#/events', '#events-title'));
    }
    const rows = await page.getByTestId('feed-row').count();
    const m = median(samples);
    const b = median(baseline);
    console.log(
      `\nevents view first paint with 10,000 stored entries (Chromium, headless, 1400x900), 7 rounds: median ${m.toFixed(0)} ms (samples ${samples.map((s) => s.toFixed(0)).join(', ')}), ${rows} rows in the DOM (target <= 200 ms)`,
    );
    console.log(
      `  baseline: switching to the empty History view, median ${b.toFixed(0)} ms (events view ${(m / b).toFixed(1)}x); load average ${loadavg()[0]?.toFixed(1)}`,
    );
    console.log(`  the view's heading alone (the same switch, waiting for no row): median ${median(heading).toFixed(0)} ms`);
  } finally {
    await browser.close();
    await host.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
