// Starts `npm run headless -- --data-dir DIR --json` exactly as a tester would, and stops it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** A running headless host. */
export interface HeadlessHost {
  url: string;
  port: number;
  token: string;
  dataDir: string;
  child: ChildProcess;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** A fresh temporary data folder. */
export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'switchboard-e2e-'));
}

/** Starts the host and resolves with its URL line. */
export function startHeadless(dataDir: string, env: Record<string, string> = {}): Promise<HeadlessHost> {
  const child = spawn('npm', ['run', '--silent', 'headless', '--', '--data-dir', dataDir, '--json'], {
    cwd: root,
    env: { ...process.env, SWITCHBOARD_CREDENTIALS: 'memory', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`headless did not start in time: ${err}`)), 60_000);
    child.on('exit', (code) => reject(new Error(`headless exited with ${code}: ${err}`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      const info = JSON.parse(line) as { url: string; port: number; token: string };
      resolve({
        ...info,
        dataDir,
        child,
        stderr: () => err,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            process.kill(-child.pid!, 'SIGTERM');
          }),
      });
    });
  });
}
