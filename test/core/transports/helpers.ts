// Shared helpers for the transport tests: fixture commands, configs and a log collector.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { ServerConfigSchema, type ServerConfig, type ServerConfigInput } from '../../../shared/config.js';
import type { TransportLog } from '../../../electron/core/transports/transport-factory.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/servers');

/** argv that runs a TypeScript fixture with the current Node and tsx. */
export function fixtureArgv(name: string, ...extra: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--import', 'tsx', path.join(FIXTURES, name), ...extra] };
}

/** A stdio server config for a fixture (cwd = repo root so `--import tsx` resolves). */
export function stdioConfig(
  id: string,
  name: string,
  opts: { inheritEnv?: boolean; limits?: Partial<ServerConfig['limits']>; command?: string; args?: string[] } = {},
): ServerConfig {
  const argv = fixtureArgv(name);
  const input: ServerConfigInput = {
    id,
    name: id,
    transport: {
      type: 'stdio',
      command: opts.command ?? argv.command,
      args: opts.args ?? argv.args,
      cwd: REPO_ROOT,
      inheritEnv: opts.inheritEnv ?? false,
    },
    ...(opts.limits !== undefined ? { limits: opts.limits } : {}),
  };
  return ServerConfigSchema.parse(input);
}

/** An HTTP/SSE server config. */
export function remoteConfig(
  id: string,
  type: 'http' | 'sse',
  url: string,
  extra: { headers?: Record<string, string>; limits?: Partial<ServerConfig['limits']> } = {},
): ServerConfig {
  return ServerConfigSchema.parse({
    id,
    name: id,
    transport: { type, url, ...(extra.headers !== undefined ? { headers: extra.headers } : {}) },
    ...(extra.limits !== undefined ? { limits: extra.limits } : {}),
  });
}

export interface LogLine {
  source: string;
  level: string;
  text: string;
}

/** A log callback that keeps what it receives. */
export function collectLog(): { log: TransportLog; lines: LogLine[] } {
  const lines: LogLine[] = [];
  return { lines, log: (source, level, text) => lines.push({ source, level, text }) };
}

/** A fresh SDK client using the legacy initialize handshake. */
export function legacyClient(): Client {
  return new Client({ name: 'switchboard-test', version: '0.0.0' }, { versionNegotiation: { mode: 'legacy' } });
}

/** Text of the first content block of a tool result. */
export function firstText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  const block = content[0];
  if (block?.type !== 'text' || typeof block.text !== 'string') throw new Error(`no text block in ${JSON.stringify(result).slice(0, 200)}`);
  return block.text;
}

/** True when the pid no longer runs (a zombie awaiting a reaper counts as gone). */
export function pidGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

/** Starts an HTTP fixture and resolves with its announced URL. */
export async function startHttpFixture(
  name: string,
  ...args: string[]
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const argv = fixtureArgv(name, ...args);
  const child = spawn(argv.command, argv.args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`fixture ${name} did not announce a URL; stderr: ${stderr}`)), 20_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl !== -1) {
        clearTimeout(timer);
        resolve((JSON.parse(out.slice(0, nl)) as { url: string }).url);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fixture ${name} exited with ${String(code)}; stderr: ${stderr}`));
    });
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(t);
  };
  return { url, child, stop };
}
