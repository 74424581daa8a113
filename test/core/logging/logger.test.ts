// The log file both shells write: one line per entry with time, level and component; untrusted text escaped so it
// cannot forge lines or drive a terminal; secrets masked (registered values and known shapes); rotation by size; and
// through bootstrap, the path in app.info, server failures with their reason, and secrets read at spawn masked.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppInfo, ServerStatus } from '../../../shared/contract.js';
import { bootstrap } from '../../../electron/bootstrap.js';
import { redactingCredentials } from '../../../electron/core/logging/host-log.js';
import { createLogger, logFileIn } from '../../../electron/core/logging/logger.js';
import { Redactor } from '../../../electron/core/logging/redact.js';
import { RotatingFile } from '../../../electron/core/logging/rotating-file.js';
import { createSettingsStore } from '../../../electron/platform/settings-store.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { call, cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved } from '../sessions/helpers.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(cleanup));
const dir = (): string => {
  const d = tempDir('sb-log-');
  dirs.push(d);
  return d;
};
const lines = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('log lines', () => {
  it('carry time, level and component, and escape control characters so nothing can forge a line', async () => {
    const d = dir();
    const logger = createLogger({ dataDir: d, now: () => new Date('2026-03-04T05:06:07.089Z') });
    logger.warn('server evil', 'hello\n2026-01-01T00:00:00.000Z ERROR [app] forged\u001b]0;title\u0007\u202edone');
    logger.debug('app', 'not written at the default level');
    await logger.close();
    const file = logFileIn(d);
    expect(lines(file)).toEqual([
      '2026-03-04T05:06:07.089Z WARN  [server evil] hello\\n2026-01-01T00:00:00.000Z ERROR [app] forged\\x1b]0;title\\x07\\u202edone',
    ]);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('mask registered secrets and well-known secret shapes', () => {
    const r = new Redactor();
    r.add('s3cr3t-value-42');
    r.add('short');
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl';
    const masked = r.redact(
      `env s3cr3t-value-42; short; sent Bearer abcdefghijklmnop; ${jwt}; https://x/cb?code=AUTHCODE123&state=ok; {"client_secret":"cs-999","name":"ok"}; refresh_token=rt-1`,
    );
    expect(masked).not.toMatch(/s3cr3t-value-42|abcdefghijklmnop|AUTHCODE123|cs-999|rt-1|eyJ/);
    expect(masked).toContain('short'); // too short to be searched for
    expect(masked).toContain('state=ok');
    expect(masked).toContain('"name":"ok"');
    // A header line is masked to its end.
    expect(r.redact('Authorization: Basic dXNlcjpwYXNz; more')).toBe('Authorization: [redacted]');
  });

  it('rotate by size and keep a bounded number of files', async () => {
    const d = dir();
    const file = new RotatingFile(logFileIn(d), { maxBytes: 200, keep: 3 });
    for (let i = 0; i < 40; i++) file.write(`line ${i} ${'x'.repeat(40)}`);
    await file.close();
    expect(existsSync(file.path)).toBe(true);
    expect(existsSync(file.rotated(1))).toBe(true);
    expect(existsSync(file.rotated(2))).toBe(true);
    expect(existsSync(file.rotated(3))).toBe(false);
    expect(lines(file.path).at(-1)).toMatch(/^line 39 /);
    for (const f of [file.path, file.rotated(1), file.rotated(2)]) expect(statSync(f).size).toBeLessThanOrEqual(200);
  });

  it('drop and count lines past the backlog instead of growing without end', async () => {
    const d = dir();
    const logger = createLogger({ dataDir: d, rotation: { maxBacklogBytes: 4096 } });
    for (let i = 0; i < 2000; i++) logger.info('flood', `line ${i} ${'y'.repeat(100)}`);
    await logger.flush();
    logger.info('app', 'after the flood');
    await logger.close();
    const text = readFileSync(logFileIn(d), 'utf8');
    expect(text).toMatch(/\d+ log lines were dropped: the disk did not keep up/);
    expect(text).toContain('after the flood');
  });
});

describe('the log of a running core', () => {
  it('is named in app.info, records a failed server with its reason, and masks a secret read at spawn', async () => {
    const d = dir();
    const logger = createLogger({ dataDir: d });
    const { host, dispatch } = await bootstrap({
      mode: 'headless',
      version: '0.0.0-test',
      settingsStore: createSettingsStore(d),
      credentials: new MemoryCredentialStore(),
      logger,
    });
    try {
      const info = await call<AppInfo>(dispatch, 'app.info', {});
      expect(info.logFile).toBe(logFileIn(d));
      await addApproved(host, {
        id: 'ghost',
        name: 'Ghost',
        startup: 'manual',
        transport: {
          type: 'stdio',
          command: '/nonexistent/ghost-server',
          args: [],
          env: { API_TOKEN: { secret: true, value: 'CANARY-3141592653' } },
        },
      });
      const status = await call<ServerStatus>(dispatch, 'servers.connect', { id: 'ghost' });
      expect(status.state).toBe('failed');
      logger.warn('test', 'a careless message with CANARY-3141592653 in it');
    } finally {
      await host.shutdown();
    }
    const text = readFileSync(logFileIn(d), 'utf8');
    expect(text).toMatch(/WARN {2}\[server ghost\] failed: command_not_found: Command not found: \/nonexistent\/ghost-server/);
    expect(text).toContain('a careless message with [redacted] in it');
    expect(text).not.toContain('CANARY-3141592653');
  });

  it('registers secrets the credential store handles', async () => {
    const logger = createLogger();
    const store = redactingCredentials(new MemoryCredentialStore(), logger);
    await store.set('oauth:x', 'token-abcdef-123');
    expect(logger.redactor.redact('sent token-abcdef-123')).toBe('sent [redacted]');
    expect(store.kind).toBe('memory');
  });
});
