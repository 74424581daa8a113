// The desktop shell's core launcher with a real core process. No Electron binary runs here, so Electron's
// `utilityProcess` is stood in for by a Node child that has the `parentPort` a utility process has (support/
// parent-port-preload.mjs) and reports its end as Chromium does: the signal's number as the exit code, and the reason
// through a separate "gone" report (Electron's `child-process-gone`). The core's entry, the supervisor and the
// launcher are the real ones: the core starts and answers through the parent port, a kill -9 is named in the restart
// notice, and a shutdown ends the process.
import { fork } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppInfo } from '../../shared/contract.js';
import { answerShellRequest } from '../../electron/app/shell-services.js';
import { CoreSupervisor } from '../../electron/shell/core-supervisor.js';
import {
  describeUtilityExit,
  startUtilityCore,
  type GoneDetails,
  type UtilityChild,
  type UtilityCore,
  type UtilityForker,
} from '../../electron/shell/utility-core-process.js';
import { cleanup, tempDir } from '../shared/support/harness.js';
import { alive, until } from './support/processes.js';

const entry = fileURLToPath(new URL('../../electron/core-process/entry.ts', import.meta.url));
const preload = pathToFileURL(fileURLToPath(new URL('./support/parent-port-preload.mjs', import.meta.url))).href;

const dirs: string[] = [];
const supervisors: CoreSupervisor[] = [];
const pids = new Set<number>();

afterEach(async () => {
  for (const supervisor of supervisors.splice(0)) await supervisor.shutdown(4000);
  await until('every core process to end', () => [...pids].every((pid) => !alive(pid)), 30_000);
  pids.clear();
  dirs.splice(0).forEach(cleanup);
});

/** Electron's utilityProcess, stood in for by a Node child; `gone` plays `child-process-gone`. */
function nodeUtilityForker(gone: (details: GoneDetails) => void): UtilityForker {
  return {
    fork: (modulePath, args, options) => {
      const child = fork(modulePath, args, {
        serialization: 'advanced',
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        env: options.env,
        execArgv: ['--import', 'tsx', '--import', preload],
      });
      if (child.pid !== undefined) pids.add(child.pid);
      const utility: UtilityChild = {
        pid: child.pid,
        stdout: child.stdout,
        stderr: child.stderr,
        postMessage: (message) => void child.send(message as object),
        on: (event: 'message' | 'exit', listener: (value: never) => void) => {
          if (event === 'message') child.on('message', listener as (message: unknown) => void);
          else
            child.on('exit', (code, signal) => {
              const number = signal ? constants.signals[signal] : (code ?? 0);
              if (signal) gone({ reason: signal === 'SIGKILL' ? 'killed' : 'crashed', exitCode: number });
              (listener as (code: number) => void)(number);
            });
          return utility;
        },
        kill: () => child.kill('SIGTERM'),
      };
      return utility;
    },
  };
}

function supervise(): { supervisor: CoreSupervisor; lines: string[]; opened: string[] } {
  const dataDir = tempDir('sb-utility-core-');
  dirs.push(dataDir);
  const lines: string[] = [];
  const opened: string[] = [];
  let current: UtilityCore | undefined;
  const supervisor = new CoreSupervisor({
    launch: () => {
      current = startUtilityCore({
        forker: nodeUtilityForker((details) => current?.noteGone(details)),
        entry,
        onLine: (line) => lines.push(line),
      });
      return current;
    },
    init: () => ({ mode: 'electron', version: '0.0.0-test', dataDir, credentials: 'memory', echoLog: false }),
    serve: answerShellRequest({
      openExternal: (url) => {
        opened.push(url);
        return Promise.resolve();
      },
      openAppWindow: () => Promise.reject(new Error('no app windows in this test')),
      safeStorage: {
        isAsyncEncryptionAvailable: () => Promise.resolve(false),
        encryptStringAsync: () => Promise.reject(new Error('unavailable')),
        decryptStringAsync: () => Promise.reject(new Error('unavailable')),
      },
    }),
    log: (_level, message) => lines.push(`[supervisor] ${message}`),
    logFile: '/tmp/shell.log',
  });
  supervisors.push(supervisor);
  return { supervisor, lines, opened };
}

describe('the desktop core launcher (utility process)', () => {
  it(
    'starts the real core through the parent port, restarts it after kill -9 naming the signal, and shuts it down',
    { timeout: 90_000 },
    async () => {
      const { supervisor, lines } = supervise();
      const statuses: string[] = [];
      supervisor.subscribe((event, payload) => {
        if (event === 'app.coreStatus') statuses.push((payload as { state: string }).state);
      });
      expect(await supervisor.start(), lines.join('\n')).toBe(true);
      const first = supervisor.pid!;
      const info = await supervisor.dispatch('app.info', {});
      expect(info.ok, JSON.stringify(info)).toBe(true);

      process.kill(first, 'SIGKILL');
      await until('a new core', () => supervisor.pid !== undefined && supervisor.pid !== first);
      const after = await supervisor.dispatch('app.info', {});
      expect(after.ok).toBe(true);
      const notice = (after.ok ? (after.value as AppInfo) : undefined)?.notices.find((n) => n.id === 'core-restarted');
      expect(notice?.message).toContain("Switchboard's core stopped (killed by SIGKILL) and was restarted");
      // One notice for one event: the data folder's "did not stop cleanly" is folded into the restart notice.
      expect(notice?.message).toContain('the last calls before the stop may be missing');
      expect((after.ok ? (after.value as AppInfo) : undefined)?.notices.map((n) => n.id)).not.toContain('unclean-stop');
      expect(statuses).toEqual(['running', 'restarting', 'running']);
      expect(alive(first)).toBe(false);

      const second = supervisor.pid!;
      const report = await supervisor.shutdown(4000);
      // The core ran its own shutdown (a report came back) rather than being ended by the shell.
      expect(report?.steps.length).toBeGreaterThan(0);
      await until('the core to end', () => !alive(second));
    },
  );

  it('refuses what the shell does not serve, and says why', async () => {
    const answer = answerShellRequest({
      openExternal: () => Promise.resolve(),
      openAppWindow: () => Promise.resolve(),
      safeStorage: {
        isAsyncEncryptionAvailable: () => Promise.resolve(true),
        encryptStringAsync: (plain) => Promise.resolve(Buffer.from(`x${plain}`)),
        decryptStringAsync: (cipher) => Promise.resolve({ shouldReEncrypt: false, result: cipher.toString().slice(1) }),
      },
    });
    const cipher = (await answer({ op: 'safeStorage.encrypt', plain: 'secret' })) as string;
    expect(Buffer.from(cipher, 'base64').toString()).toBe('xsecret');
    expect(await answer({ op: 'safeStorage.decrypt', cipher })).toEqual({ shouldReEncrypt: false, result: 'secret' });
    await expect(answer({ op: 'nope' } as never)).rejects.toThrow('the shell does not serve nope');
  });
});

describe('describeUtilityExit', () => {
  it.each([
    [9, { reason: 'killed', exitCode: 9 }, 'killed by SIGKILL'],
    [11, { reason: 'crashed', exitCode: 11 }, 'crashed (SIGSEGV)'],
    [0, { reason: 'oom', exitCode: 0 }, 'it ran out of memory'],
    [70, undefined, 'an unexpected error in the core'],
    [1, { reason: 'abnormal-exit', exitCode: 1 }, 'exited with code 1'],
    [3, undefined, 'exited with code 3'],
  ] as const)('code %i with %o is "%s"', (code, gone, words) => {
    expect(describeUtilityExit(code, gone)).toBe(words);
  });
});
