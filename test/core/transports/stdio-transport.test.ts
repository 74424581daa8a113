// The stdio transport against real child processes (fixtures in test/fixtures/servers), with the SDK v2 Client on top.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { createTransport } from '../../../electron/core/transports/create-transport.js';
import { openStdioTransport, StdioTransport } from '../../../electron/core/transports/stdio-transport.js';
import type { OpenedTransport } from '../../../electron/core/transports/transport-factory.js';
import { collectLog, firstText, legacyClient, pidGone, stdioConfig } from './helpers.js';

const opened: OpenedTransport[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.release()));
});

function track<T extends OpenedTransport>(o: T): T {
  opened.push(o);
  return o;
}

describe('stdio transport', () => {
  it('connects an SDK v2 client (legacy handshake) and calls a tool', async () => {
    const { log } = collectLog();
    const o = track(createTransport({ config: stdioConfig('echo', 'echo-stdio.ts'), env: {}, log }));
    const client = legacyClient();
    await client.connect(o.transport);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    expect(firstText(result)).toBe('hello');
    await client.close();
  });

  it('negotiates 2026-07-28 in auto mode in place (our transport looks like stdio to the SDK)', async () => {
    const { log } = collectLog();
    const o = track(createTransport({ config: stdioConfig('echo-auto', 'echo-stdio.ts'), env: {}, log }));
    const { Client } = await import('@modelcontextprotocol/client');
    const client = new Client({ name: 't', version: '0' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 10_000 } } });
    await client.connect(o.transport);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(firstText(result)).toBe('5');
    await client.close();
  });

  it('falls back in place to initialize when the server is silent on server/discover (auto mode)', async () => {
    const { log } = collectLog();
    const o = track(openStdioTransport({ config: stdioConfig('silent', 'silent-discover.ts'), env: {}, log }));
    const { Client } = await import('@modelcontextprotocol/client');
    const client = new Client({ name: 't', version: '0' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 1000 } } });
    // Connected at all: the server never answers server/discover, so only the probe's bound ends that wait.
    await client.connect(o.transport);
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'legacy' } }))).toBe('legacy');
    await client.close();
  });

  it('discards a 20 MiB line with limit_exceeded, keeps the session usable and memory bounded', async () => {
    const { log, lines } = collectLog();
    const o = track(openStdioTransport({ config: stdioConfig('huge', 'huge-line.ts'), env: {}, log }));
    const errors: Error[] = [];
    const client = legacyClient();
    client.onerror = (e) => errors.push(e);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const started = Date.now();
    await client.connect(o.transport);
    // The fixture writes the 20 MiB line right after notifications/initialized.
    const deadline = Date.now() + 20_000;
    while (!errors.some((e) => e instanceof AppError && e.code === 'limit_exceeded') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    while (!lines.some((l) => l.text.startsWith('Discarded a')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const elapsed = Date.now() - started;
    clearInterval(sampler);
    const after = process.memoryUsage().rss;
    const limitError = errors.find((e) => e instanceof AppError && e.code === 'limit_exceeded') as AppError | undefined;
    expect(limitError).toBeDefined();
    expect(limitError?.message).toContain('8 MiB');
    expect(limitError?.message).toContain('limits.messageBytes');
    expect(lines.find((l) => l.text.startsWith('Discarded a'))?.text).toContain('20971520-byte');
    // Still usable afterwards.
    const result = await client.callTool({ name: 'echo', arguments: { text: 'after' } });
    expect(firstText(result)).toBe('after');
    const growthMiB = (Math.max(peak, after) - before) / (1024 * 1024);
    // Figures only: memory targets live in bench/. What bounds memory is that the reader never holds more
    // than the limit for one line, which is asserted exactly below.
    console.log(
      `huge line: rss before ${(before / 1048576).toFixed(1)} MiB, peak ${(peak / 1048576).toFixed(1)} MiB, growth ${growthMiB.toFixed(1)} MiB, ${elapsed} ms to connect+discard`,
    );
    expect(o.transport.stats.oversizedLines).toBe(1);
    expect(o.transport.stats.peakLineBytes).toBeGreaterThan(0);
    expect(o.transport.stats.peakLineBytes).toBeLessThanOrEqual(8 * 1024 * 1024);
    await client.close();
  });

  it('fails the request whose response is over the limit at once, instead of waiting for its timeout', async () => {
    const { log } = collectLog();
    const o = track(
      createTransport({ config: stdioConfig('big', 'echo-stdio.ts', { limits: { messageBytes: 1024 * 1024 } }), env: {}, log }),
    );
    const client = legacyClient();
    await client.connect(o.transport);
    const err = await client.callTool({ name: 'big', arguments: { bytes: 3 * 1024 * 1024 } }, { timeout: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    // The limit's error, not the request timeout's.
    expect((err as Error).message).toMatch(/larger than the 1 MiB limit \(limits.messageBytes\)/);
    // The session stays usable.
    const result = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect(firstText(result)).toBe('still here');
    await client.close();
  });

  it('skips non-JSON stdout lines and logs them', async () => {
    const { log, lines } = collectLog();
    const o = track(openStdioTransport({ config: stdioConfig('nonjson', 'non-json.ts'), env: {}, log }));
    const client = legacyClient();
    await client.connect(o.transport);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'still fine' } });
    expect(firstText(result)).toBe('still fine');
    const skipped = lines.filter((l) => l.source === 'stdout' && l.level === 'warning').map((l) => l.text);
    expect(skipped.some((t) => t.includes('Starting non-json fixture server'))).toBe(true);
    expect(skipped.some((t) => t.includes('{"this is": not json'))).toBe(true);
    expect(skipped.some((t) => t.includes('{"hello":"world"}'))).toBe(true);
    expect(o.transport.stats.skippedLines).toBeGreaterThanOrEqual(4);
    await client.close();
  });

  it('reports a child that exits at once with its exit code and stderr', async () => {
    const { log, lines } = collectLog();
    const o = track(openStdioTransport({ config: stdioConfig('exit', 'exit-at-once.ts'), env: {}, log }));
    const errors: Error[] = [];
    const closed = new Promise<void>((resolve) => {
      o.transport.onclose = () => resolve();
    });
    o.transport.onerror = (e) => errors.push(e);
    await o.transport.start();
    await closed;
    const evidence = o.diagnostics.evidence();
    expect(evidence.exitCode).toBe(3);
    expect(evidence.signal).toBeNull();
    expect(evidence.stderrTail).toContain('fatal: boom');
    const exited = errors.find((e) => e instanceof AppError && e.code === 'process_exited') as AppError | undefined;
    expect(exited?.message).toContain('code 3');
    expect(exited?.evidence?.stderrTail).toContain('fatal: boom');
    expect(lines.some((l) => l.source === 'stderr' && l.text === 'fatal: boom')).toBe(true);
  });

  it('fails the SDK connect when the child exits at once, with the evidence still readable', async () => {
    const { log } = collectLog();
    const o = track(openStdioTransport({ config: stdioConfig('exit2', 'exit-at-once.ts'), env: {}, log }));
    const client = legacyClient();
    await expect(client.connect(o.transport)).rejects.toThrow();
    expect(o.diagnostics.evidence()).toMatchObject({ exitCode: 3, stderrTail: ['fatal: boom'] });
  });

  it('reports command_not_found with the PATH that was searched', async () => {
    const { log } = collectLog();
    const config = stdioConfig('nope', 'echo-stdio.ts', { command: 'switchboard-no-such-command-xyz', args: [] });
    const o = track(openStdioTransport({ config, env: {}, log, loginPath: '/opt/sb-a/bin:/opt/sb-b/bin' }));
    const error = await o.transport.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('command_not_found');
    expect((error as AppError).evidence?.searchedPath).toEqual(['/opt/sb-a/bin', '/opt/sb-b/bin']);
    expect(o.diagnostics.evidence().searchedPath).toEqual(['/opt/sb-a/bin', '/opt/sb-b/bin']);
    // Through the SDK client too.
    const o2 = track(openStdioTransport({ config, env: {}, log }));
    await expect(legacyClient().connect(o2.transport)).rejects.toMatchObject({ code: 'command_not_found' });
  });

  it('reports spawn_failed for a missing working directory', async () => {
    const { log } = collectLog();
    const base = stdioConfig('cwd', 'echo-stdio.ts');
    const config = { ...base, transport: { ...base.transport, cwd: '/no/such/dir/switchboard' } } as typeof base;
    const o = track(openStdioTransport({ config, env: {}, log }));
    await expect(o.transport.start()).rejects.toMatchObject({ code: 'spawn_failed' });
  });

  it('release() leaves no grandchild behind, even one that ignores SIGTERM', async () => {
    if (process.platform === 'win32') return;
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-gc-'));
    const pidFile = path.join(dir, 'pids');
    try {
      const { log } = collectLog();
      const o = track(
        openStdioTransport(
          { config: stdioConfig('gc', 'grandchild.ts'), env: { GRANDCHILD_PID_FILE: pidFile, GRANDCHILD_HOLD_STDIO: '1' }, log },
          { stdinGraceMs: 500, termGraceMs: 1000 },
        ),
      );
      const client = legacyClient();
      await client.connect(o.transport);
      expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'x' } }))).toBe('x');
      // The grandchild records its pid once its own Node has started.
      let grandchild = 0;
      for (let i = 0; i < 200 && grandchild === 0; i++) {
        try {
          grandchild = Number(readFileSync(pidFile, 'utf8').trim().split('\n')[0]) || 0;
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      const leader = o.transport.pid as number;
      expect(grandchild).toBeGreaterThan(0);
      expect(pidGone(grandchild)).toBe(false);
      const started = Date.now();
      await o.release();
      const took = Date.now() - started;
      console.log(`grandchild release took ${took} ms`);
      expect(pidGone(grandchild)).toBe(true);
      expect(pidGone(leader)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives the child only the essential environment unless inheritEnv', async () => {
    process.env.SWITCHBOARD_TEST_SECRET = 'parent-secret';
    try {
      const { log } = collectLog();
      const readEnv = async (inheritEnv: boolean): Promise<Record<string, string>> => {
        const o = track(
          openStdioTransport({
            config: stdioConfig(`env-${String(inheritEnv)}`, 'transport-env.ts', { inheritEnv }),
            env: { CONFIGURED_VALUE: 'from-config' },
            loginPath: `/opt/login-shell/bin:${path.dirname(process.execPath)}`,
            log,
          }),
        );
        const client = legacyClient();
        await client.connect(o.transport);
        const env = JSON.parse(firstText(await client.callTool({ name: 'env', arguments: {} }))) as Record<string, string>;
        await client.close();
        return env;
      };
      const minimal = await readEnv(false);
      expect(minimal.SWITCHBOARD_TEST_SECRET).toBeUndefined();
      expect(minimal.CONFIGURED_VALUE).toBe('from-config');
      expect(minimal.PATH).toBe(`/opt/login-shell/bin:${path.dirname(process.execPath)}`);
      const allowed = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'TMPDIR', 'CONFIGURED_VALUE']);
      // Node itself may add a few variables of its own at start-up; none may come from our parent env.
      const leaked = Object.keys(minimal).filter((k) => !allowed.has(k) && process.env[k] !== undefined && process.env[k] === minimal[k]);
      expect(leaked).toEqual([]);
      const full = await readEnv(true);
      expect(full.SWITCHBOARD_TEST_SECRET).toBe('parent-secret');
      expect(full.CONFIGURED_VALUE).toBe('from-config');
    } finally {
      delete process.env.SWITCHBOARD_TEST_SECRET;
    }
  });

  it('keeps the evidence empty before start', () => {
    const t = new StdioTransport({
      serverId: 'x',
      command: 'x',
      args: [],
      env: {},
      inheritEnv: false,
      messageBytes: 1024,
      log: () => undefined,
    });
    expect(t.evidence()).toEqual({ stderrTail: [] });
    expect(t.pid).toBeNull();
  });
});

describe('release right after start', () => {
  /** Live (not zombie) processes whose command line holds `marker`. */
  function running(marker: string): number[] {
    const found: number[] = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
        const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
        if (cmdline.includes(marker) && state !== 'Z') found.push(Number(name));
      } catch {
        // gone meanwhile
      }
    }
    return found;
  }

  it('a release before the spawn event still ends the process (a connect cancelled at once left it running)', async () => {
    if (process.platform !== 'linux') return;
    const marker = `sb-release-marker-${process.pid}-${Date.now()}`;
    const { log } = collectLog();
    const config = stdioConfig('early', 'hang.ts', { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', marker] });
    const o = openStdioTransport({ config, env: {}, log }, { stdinGraceMs: 200, termGraceMs: 1000 });
    const starting = o.transport.start().catch(() => undefined);
    expect(running(marker)).toHaveLength(1);
    await o.release();
    await starting;
    expect(running(marker)).toEqual([]);
  });
});
