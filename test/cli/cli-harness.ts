// Runs the built `switchboard` bin as a real child process, and writes configs for the real servers it talks to.
// Every child is tracked so a test can stop it and check it gone.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const bin = join(root, 'dist/bin/switchboard.mjs');
export const echoFixture = join(root, 'test/fixtures/servers/echo-stdio.ts');
export const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** Builds dist/bin/switchboard.mjs the way the package does. */
export function buildCli(): void {
  execFileSync(process.execPath, ['scripts/build-node.mjs'], { cwd: root, stdio: 'inherit' });
}

/** What one run of the command printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const running = new Set<ChildProcess>();

/** Runs the command to its end (stdin is not a terminal). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env: { ...process.env, SWITCHBOARD_CREDENTIALS: 'memory', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.once('close', (code) => {
      running.delete(child);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Kills any command still running (a failed test), waiting for each to exit. */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('close', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** Writes an mcp.json with the echo fixture and server-everything, each tagged with `marker` to find its processes. */
export function writeConfig(dir: string, marker: string, extra: Record<string, unknown> = {}): string {
  const file = join(dir, 'mcp.json');
  const mcpServers = {
    // Run from the checkout so `--import tsx` resolves (a server without a cwd runs in its own folder).
    echo: { command: process.execPath, args: ['--import', 'tsx', echoFixture, `--marker=${marker}`], cwd: root },
    every: { command: process.execPath, args: [everything, 'stdio', `--marker=${marker}`] },
    ...extra,
  };
  writeFileSync(file, JSON.stringify({ mcpServers }));
  return file;
}

/** Pids of processes whose command line holds `marker` (the servers a run started). */
export function processesWith(marker: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.includes(marker) && !l.includes('ps -eo'))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

/** A command still running: its output so far, its stdin, and its end. */
export interface LiveCli {
  /** Resolves with the first stdout or stderr text matching `pattern` (rejects if the command ends first). */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Writes to the command's stdin (a person pasting). */
  type(text: string): void;
  /** Sends the command a signal (a person's Ctrl-C, a supervisor's SIGTERM, kill -9). */
  kill(signal: NodeJS.Signals): void;
  /** The whole run, once it ends. */
  done: Promise<CliRun>;
}

/** Starts the command with a piped stdin and lets the test act while it waits. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): LiveCli {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env: { ...process.env, SWITCHBOARD_CREDENTIALS: 'memory', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  let ended: number | null | undefined;
  const waiters: { pattern: RegExp; resolve: (m: RegExpExecArray) => void; reject: (e: Error) => void }[] = [];
  const check = (): void => {
    for (const w of [...waiters]) {
      const m = w.pattern.exec(stdout) ?? w.pattern.exec(stderr);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    check();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    check();
  });
  const done = new Promise<CliRun>((resolve) =>
    child.once('close', (code) => {
      running.delete(child);
      ended = code;
      for (const w of waiters.splice(0)) w.reject(new Error(`the command ended (${code}) before ${w.pattern}:\n${stderr}`));
      resolve({ code, stdout, stderr });
    }),
  );
  return {
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve, reject });
        check();
        if (ended !== undefined && waiters.length > 0) reject(new Error(`the command ended (${ended}) before ${pattern}`));
      }),
    type: (text) => void child.stdin.write(text),
    kill: (signal) => void child.kill(signal),
    done,
  };
}
