// The connection doctor's stdio walk through servers.test, on real fixture servers: a healthy server passes every
// step; nothing is spawned until the exact launch is approved for the one test run; and one test per failing step
// (missing command, non-executable file, noise on stdout, exit before the handshake). Every spawned process is gone
// when the walk returns.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../../shared/config.js';
import type { ServerDetail } from '../../../shared/contract.js';
import type { DoctorStep, DoctorWalk } from '../../../shared/domains/doctor.js';
import { call, cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';
import { fixture, localFixture, stdioServer } from '../sessions/helpers.js';

let dir: string;
let h: HostHarness;
beforeEach(() => {
  dir = tempDir('sb-doctor-stdio-');
  h = makeHost(dir);
});
afterEach(() => cleanup(dir));

const test = (args: Record<string, unknown>) => call<DoctorWalk>(h.dispatch, 'servers.test', args);
const step = (walk: DoctorWalk, id: string): DoctorStep => {
  const found = walk.steps.find((s) => s.id === id);
  if (!found) throw new Error(`no step ${id}`);
  return found;
};
const statuses = (walk: DoctorWalk) => walk.steps.map((s) => `${s.id}:${s.status}`);
const evidence = (s: DoctorStep, label: string) => s.evidence.find((e) => e.label === label)?.value;

/** A server that records each spawn's pid in a file, then runs `target`. */
function counted(id: string, target: string): { config: ServerConfigInput; log: string } {
  const log = join(dir, `${id}.spawns`);
  return { config: stdioServer(id, localFixture('counted.ts'), {}, { SPAWN_LOG: log, TARGET_FIXTURE: target }), log };
}
const pids = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number) : []);
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (state Z, never reaped here) is not running.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('stdio doctor walk', () => {
  it('stops before spawning and shows the exact launch; runs it once when that launch is approved; leaves nothing running', async () => {
    const { config, log } = counted('echo', fixture('echo-stdio.ts'));
    const first = await test({ config });
    expect(statuses(first)).toEqual([
      'command:passed',
      'executable:passed',
      'spawn:needs-approval',
      'stdout:skipped',
      'handshake:skipped',
      'tools:skipped',
    ]);
    expect(first.ok).toBe(false);
    expect(first.trial).toMatchObject({
      command: process.execPath,
      args: ['--import', 'tsx', localFixture('counted.ts')],
      envKeys: ['SPAWN_LOG', 'TARGET_FIXTURE'],
    });
    expect(step(first, 'command').summary).toBe(`Found ${process.execPath}`);
    expect(pids(log)).toEqual([]);

    // A fingerprint of another launch approves nothing.
    const wrong = await test({ config, approvedLaunch: 'f'.repeat(32) });
    expect(step(wrong, 'spawn').status).toBe('needs-approval');
    expect(pids(log)).toEqual([]);

    const walk = await test({ config, approvedLaunch: first.trial?.fingerprint });
    expect(statuses(walk)).toEqual([
      'command:passed',
      'executable:passed',
      'spawn:passed',
      'stdout:passed',
      'handshake:passed',
      'tools:passed',
    ]);
    expect(walk.ok).toBe(true);
    expect(walk.trial).toBeUndefined();
    expect(step(walk, 'handshake').summary).toMatch(/^Negotiated (2026-07-28|2025-11-25)/);
    expect(evidence(step(walk, 'handshake'), 'Server')).toBe('echo-fixture 1.0.0');
    expect(evidence(step(walk, 'tools'), 'Tools')).toContain('echo');
    const spawned = pids(log);
    expect(spawned.length).toBeGreaterThan(0);
    for (const pid of spawned) expect(alive(pid), `pid ${pid}`).toBe(false);
    // Nothing was saved.
    expect(await call(h.dispatch, 'servers.list', {})).toEqual([]);
  });

  it('runs a saved server whose launch is approved, with its stored secrets', async () => {
    const config = stdioServer('envy', fixture('transport-env.ts'), {}, {});
    const withSecret: ServerConfigInput = {
      ...config,
      transport: {
        ...(config.transport as { type: 'stdio'; command: string; args: string[] }),
        env: { TOKEN: { secret: true, value: 'CANARY_doctor' } },
      },
    };
    const detail = await call<ServerDetail>(h.dispatch, 'servers.add', { config: withSecret });
    await call(h.dispatch, 'servers.approve', { id: 'envy', fingerprint: detail.approval!.fingerprint });
    const walk = await test({ id: 'envy' });
    expect(walk.ok).toBe(true);
    expect(evidence(step(walk, 'spawn'), 'Secrets without a value')).toBeUndefined();
    // The same definition being edited (secret left untouched) uses the stored secret too.
    const edited = await test({
      id: 'envy',
      config: { ...withSecret, transport: { ...withSecret.transport, env: { TOKEN: { secret: true } } } },
    });
    expect(edited.ok).toBe(true);
    expect(JSON.stringify([walk, edited])).not.toContain('CANARY_doctor');
  });

  it('missing command: says it was not found on the PATH and where it looked', async () => {
    const walk = await test({
      config: { id: 'x', name: 'x', transport: { type: 'stdio', command: 'no-such-command-sb-doctor', args: [] } },
    });
    expect(statuses(walk)).toEqual([
      'command:failed',
      'executable:skipped',
      'spawn:skipped',
      'stdout:skipped',
      'handshake:skipped',
      'tools:skipped',
    ]);
    expect(walk.failedStep).toBe('command');
    const s = step(walk, 'command');
    expect(s.summary).toBe('no-such-command-sb-doctor was not found on the PATH the server gets');
    expect(evidence(s, 'Searched')).toContain('/usr/bin');
    expect(s.advice).toMatch(/give the program’s full path/);
  });

  it('non-executable file: names the file and its mode', async () => {
    const file = join(dir, 'server.js');
    writeFileSync(file, 'console.log("hi")\n');
    chmodSync(file, 0o644);
    const walk = await test({ config: { id: 'x', name: 'x', transport: { type: 'stdio', command: file, args: [] } } });
    expect(statuses(walk).slice(0, 3)).toEqual(['command:passed', 'executable:failed', 'spawn:skipped']);
    const s = step(walk, 'executable');
    expect(s.summary).toBe(`${file} cannot be run: it is not executable (mode 644)`);
    expect(s.advice).toMatch(/chmod \+x/);
  });

  it('noise on stdout: quotes the first non-JSON line and still walks the handshake', async () => {
    const { config } = counted('noisy', fixture('non-json.ts'));
    const trial = (await test({ config })).trial!;
    const walk = await test({ config, approvedLaunch: trial.fingerprint });
    expect(statuses(walk)).toEqual([
      'command:passed',
      'executable:passed',
      'spawn:passed',
      'stdout:failed',
      'handshake:passed',
      'tools:passed',
    ]);
    expect(walk.failedStep).toBe('stdout');
    const s = step(walk, 'stdout');
    expect(s.summary).toBe('The server wrote text that is not JSON-RPC to stdout: "Starting non-json fixture server v1.0 ..."');
    expect(s.advice).toMatch(/must write its logs and banners to stderr/);
  });

  it('exit before the handshake: the exit code and the last stderr lines', async () => {
    const { config, log } = counted('dies', fixture('exit-at-once.ts'));
    const trial = (await test({ config })).trial!;
    const walk = await test({ config, approvedLaunch: trial.fingerprint });
    expect(statuses(walk)).toEqual([
      'command:passed',
      'executable:passed',
      'spawn:passed',
      'stdout:warning',
      'handshake:failed',
      'tools:skipped',
    ]);
    const s = step(walk, 'handshake');
    expect(s.summary).toMatch(/exited with code 3/);
    expect(evidence(s, 'Exit code')).toBe('3');
    expect(evidence(s, 'Last stderr')).toContain('fatal: boom');
    expect(s.advice).toMatch(/stopped before the handshake/);
    for (const pid of pids(log)) expect(alive(pid)).toBe(false);
  });
});
