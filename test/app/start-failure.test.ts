// A failed start shows the reason and the log's path in a native dialog, releases the data folder and exits 1.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { reportStartFailure, startFailureMessage } from '../../electron/app/start-failure.js';

describe('failed start', () => {
  it('shows the reason and the log path, releases the lock, logs, and exits 1 (in that order)', async () => {
    const steps: string[] = [];
    await reportStartFailure(
      {
        showErrorBox: (title, content) => steps.push(`dialog ${title} | ${content}`),
        exit: (code) => steps.push(`exit ${code}`),
        log: (m) => steps.push(`log ${m.split('\n')[0]}`),
        release: () => steps.push('release'),
        flushLog: async () => {
          await new Promise((resolve) => setImmediate(resolve));
          steps.push('log flushed');
        },
      },
      new AppError('data_locked', 'The data folder /d is in use by Switchboard in headless mode (process 42)'),
      '/d/logs/switchboard.log',
    );
    expect(steps).toEqual([
      'log start failed: AppError: The data folder /d is in use by Switchboard in headless mode (process 42)',
      'release',
      'log flushed',
      'dialog Switchboard could not start | The data folder /d is in use by Switchboard in headless mode (process 42)\n\nDetails are in the log: /d/logs/switchboard.log',
      'exit 1',
    ]);
  });

  it('still exits when the dialog itself throws, and escapes control characters in the reason', async () => {
    let code: number | undefined;
    await expect(
      reportStartFailure(
        {
          showErrorBox: () => {
            throw new Error('no display');
          },
          exit: (c) => (code = c),
        },
        new Error('bad\u001b[2Jthing'),
        null,
      ),
    ).rejects.toThrow('no display');
    expect(code).toBe(1);
    expect(startFailureMessage('x\u202ey', null).content).toBe('x\\u202ey\n\nNo log file could be written.');
  });

  it('does not wait for a log that never finishes writing', async () => {
    const steps: string[] = [];
    await reportStartFailure(
      {
        showErrorBox: () => steps.push('dialog'),
        exit: (code) => steps.push(`exit ${code}`),
        flushLog: () => new Promise<void>(() => undefined),
      },
      new Error('broken'),
      '/d/logs/switchboard.log',
      20,
    );
    expect(steps).toEqual(['dialog', 'exit 1']);
  });
});
