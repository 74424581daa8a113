// History view benchmark (issue 28): the History view's first paint in Chromium with a 1,000-entry history,
// against a switch to Settings in the same page (A and B interleaved, median and spread of the per-round
// ratios), and what a 10,000-entry history file (trimmed to the 1,000 kept) costs in memory against a 1,000-entry
// one: RSS of the whole headless Switchboard (launcher and core) once the history is loaded, alternating launches.
// Needs `npm run build` and Chromium. Target: first paint <= 150 ms; the 10,000-entry file costs no extra memory.
// Run: npm run bench -- history   (prints figures; not part of npm test)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { interleave, loadLine, median, tempDir } from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const LAUNCHES = Number(process.env.BENCH_LAUNCHES ?? 3);
const KEPT = 1000;
const HISTORY_FILE = 'call-history.json';
/** What the launches' stop checks found (thrown once the figures are printed). */
const problems: string[] = [];

/** `n` history entries, newest first, shaped like real calls (a few saved ones among the old entries). */
function entries(n: number): unknown[] {
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => ({
    callId: `call-${i}`,
    serverId: `server-${i % 7}`,
    tool: `tool_${i % 40}`,
    originalName: `tool_${i % 40}`,
    arguments: { query: `search words ${i}`, limit: 10, options: { deep: i % 2 === 0, tags: ['a', 'b', `t${i % 9}`] } },
    startedAt: now - i * 1000,
    durationMs: 5 + (i % 300),
    status: i % 17 === 0 ? 'error' : 'ok',
    presentation: {
      isError: i % 17 === 0,
      text: `Result ${i}: ${'lorem ipsum dolor sit amet '.repeat(12)}`,
      truncated: false,
      media: [],
      notices: [],
      links: [],
      resources: [],
      structured: JSON.stringify({ rows: Array.from({ length: 8 }, (_, k) => ({ k, v: `value ${i}-${k}` })) }),
    },
    ...(i % 1500 === 1499 ? { savedAs: `saved ${i}` } : {}),
    origin: { kind: 'person' },
  }));
}

function dataDirWith(n: number): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ schemaVersion: 1, servers: [], approvals: {}, demoOffered: true }));
  writeFileSync(join(dir, HISTORY_FILE), JSON.stringify({ version: 1, entries: entries(n) }));
  return dir;
}

/** Resident memory (MiB) of every process in the process group `pgid`. */
function groupRss(pgid: number): number {
  let kib = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) kib += Number(m[1]);
    } catch {
      // it ended while being read
    }
  }
  return kib / 1024;
}

/** Clicks a view's link and resolves with the ms until `ready` matches and a frame was painted. */
async function switchTo(page: Page, view: string, ready: string): Promise<number> {
  // A string, not a function: tsx would wrap named inner functions with a helper the page does not have.
  return (await page.evaluate(`new Promise((resolve) => {
    const start = performance.now();
    const link = [...document.querySelectorAll('nav[aria-label="Views"] a')].find((a) => a.textContent.trim() === ${JSON.stringify(view)});
    link.click();
    const check = () => {
      if (document.querySelector(${JSON.stringify(ready)})) requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
      else setTimeout(check, 1);
    };
    check();
  })`)) as number;
}

async function firstPaint(browser: Browser): Promise<void> {
  const { launchHeadless } = await import('../testing/index.js');
  const app = await launchHeadless({ dataDir: dataDirWith(KEPT) });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(app.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'History' }).click();
    await page.getByTestId('history-total').filter({ hasText: '1,000' }).waitFor({ timeout: 60_000 });
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Settings' }).click();
    const settingsReady = '[data-testid="settings-view"]';
    await page.locator(settingsReady).first().waitFor();
    // Each side leaves from the other view, so every round is a real switch.
    const historyReady = 'table[aria-label="Recent calls"] tr[data-call-id]';
    await interleave(
      `first paint with ${KEPT} history entries (Chromium, headless): Settings vs History`,
      ROUNDS,
      {
        name: 'Settings',
        run: async () => {
          await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Servers' }).click();
          await page.locator(settingsReady).first().waitFor({ state: 'detached' });
          return switchTo(page, 'Settings', settingsReady);
        },
      },
      {
        name: 'History',
        run: async () => {
          await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Servers' }).click();
          await page.locator(historyReady).first().waitFor({ state: 'detached' });
          return switchTo(page, 'History', historyReady);
        },
      },
    );
    await page.close();
  } finally {
    problems.push(...(await app.stop()).problems);
  }
}

/** RSS of a launch whose history file holds `n` entries, after the History view loaded them. */
async function rssWith(browser: Browser, n: number): Promise<number> {
  const { launchHeadless } = await import('../testing/index.js');
  const app = await launchHeadless({ dataDir: dataDirWith(n) });
  try {
    const page = await browser.newPage();
    await page.goto(app.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'History' }).click();
    await page.getByTestId('history-total').filter({ hasText: '1,000' }).waitFor({ timeout: 60_000 });
    await page.close();
    return groupRss(app.pid);
  } finally {
    problems.push(...(await app.stop()).problems);
  }
}

/** The 10,000-entry file against the 1,000-entry one, alternating launches. */
async function memory(browser: Browser): Promise<void> {
  const small: number[] = [];
  const large: number[] = [];
  for (let i = 0; i < LAUNCHES; i++) {
    if (i % 2 === 0) {
      small.push(await rssWith(browser, KEPT));
      large.push(await rssWith(browser, KEPT * 10));
    } else {
      large.push(await rssWith(browser, KEPT * 10));
      small.push(await rssWith(browser, KEPT));
    }
  }
  const extra = large.map((l, i) => l - small[i]!);
  console.log(
    `RSS with the history loaded (launcher + core): ${KEPT}-entry file ${median(small).toFixed(0)} MiB, ` +
      `${KEPT * 10}-entry file ${median(large).toFixed(0)} MiB; extra ${median(extra).toFixed(1)} MiB ` +
      `(range ${Math.min(...extra).toFixed(1)}–${Math.max(...extra).toFixed(1)}, ${LAUNCHES} alternating launches, ${loadLine()})`,
  );
}

async function main(): Promise<void> {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    await firstPaint(browser);
    if (!process.argv.includes('--no-memory')) await memory(browser);
  } finally {
    await browser.close();
  }
  if (problems.length > 0) throw new Error(`Switchboard did not stop cleanly:\n${problems.join('\n')}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
