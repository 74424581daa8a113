// Headless mode as a person runs it: a second run on the same data folder exits non-zero saying which process holds
// it; SIGTERM runs the core's shutdown (stdio servers ended, pending writes flushed, the folder released, the log
// closed) and exits 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../electron/core/storage/data-lock.js';
import { logFileIn, SHELL_LOG_FILE } from '../../electron/core/logging/logger.js';
import { LAST_PORT_FILE, readLastPort } from '../../electron/headless/last-port.js';
import { TOKEN_CHECK_HEADER, TOKEN_CHECK_PATH } from '../../shared/headless-link.js';
import { cleanup, tempDir } from '../shared/support/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    }
  }
  dirs.splice(0).forEach(cleanup);
});

interface Run {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

function run(dataDir: string): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/headless.ts', '--data-dir', dataDir, '--json'], {
    cwd: root,
    env: { ...process.env, SWITCHBOARD_CREDENTIALS: 'memory' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stderr: () => err, exited };
}

async function started(r: Run): Promise<{ url: string; port: number; token: string }> {
  return new Promise((resolve, reject) => {
    createInterface({ input: r.child.stdout! }).once('line', (line) =>
      resolve(JSON.parse(line) as { url: string; port: number; token: string }),
    );
    void r.exited.then((code) => reject(new Error(`headless exited with ${String(code)}: ${r.stderr()}`)));
  });
}

describe('headless mode', () => {
  it('refuses a second run on the same data folder, naming the first; stops cleanly on SIGTERM', async () => {
    const dataDir = tempDir('sb-headless-');
    dirs.push(dataDir);
    const first = run(dataDir);
    await started(first);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true);

    const second = run(dataDir);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`is in use by Switchboard in headless mode (process ${first.child.pid}`);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    // The shell's log hears the signal; the core's log records its own shutdown.
    expect(readFileSync(logFileIn(dataDir, SHELL_LOG_FILE), 'utf8')).toContain('SIGTERM: shutting down');
    expect(readFileSync(logFileIn(dataDir), 'utf8')).toMatch(/shutdown finished its steps in \d+ ms/);
  });

  it('stops on SIGTERM after the reader of its output left (`--json | head -1`)', async () => {
    const dataDir = tempDir('sb-headless-');
    dirs.push(dataDir);
    const r = run(dataDir);
    await started(r);
    // The reader goes: every later write to stdout or stderr fails with EPIPE.
    r.child.stdout!.destroy();
    r.child.stderr!.destroy();
    r.child.kill('SIGTERM');
    // Before, the failed writes became uncaught exceptions reported to the same closed pipe, and it spun for ever.
    expect(await r.exited).toBe(0);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    expect(readFileSync(logFileIn(dataDir, SHELL_LOG_FILE), 'utf8')).toContain('SIGTERM: shutting down');
  });

  it("a restart keeps the last port, and a page with the last run's token hears that its link is stale", async () => {
    const dataDir = tempDir('sb-headless-');
    dirs.push(dataDir);
    const first = run(dataDir);
    const before = await started(first);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = run(dataDir);
    const after = await started(second);
    expect(after.port).toBe(before.port);
    expect(after.token).not.toBe(before.token);
    const check = (token: string): Promise<number> =>
      fetch(`http://127.0.0.1:${after.port}${TOKEN_CHECK_PATH}`, {
        method: 'POST',
        headers: { [TOKEN_CHECK_HEADER]: token, Origin: `http://127.0.0.1:${after.port}` },
      }).then((r) => r.status);
    expect(await check(before.token)).toBe(401);
    expect(await check(after.token)).toBe(204);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('when the last port is taken, listens on another and says so', async () => {
    const dataDir = tempDir('sb-headless-');
    dirs.push(dataDir);
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    writeFileSync(join(dataDir, LAST_PORT_FILE), JSON.stringify({ port: taken }));
    try {
      const r = run(dataDir);
      const info = await started(r);
      expect(info.port).not.toBe(taken);
      expect(r.stderr()).toContain(`port ${taken} (the last run's) is in use`);
      r.child.kill('SIGTERM');
      expect(await r.exited).toBe(0);
      expect(readLastPort(dataDir, () => undefined)).toBe(info.port);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
