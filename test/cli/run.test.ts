// The `switchboard` command as CI runs it: the built bin as a child process, against the SDK v2 echo fixture and the
// published server-everything on stdio; JSON output parsed; each exit code produced by a real cause; every server the
// command started is gone when it returns.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerSummary } from '../../shared/contract.js';
import type { ToolSummary } from '../../shared/domains/catalog.js';
import type { CallOutcome } from '../../shared/domains/calls.js';
import { EXIT } from '../../electron/cli/exit-codes.js';
import { acquireDataLock } from '../../electron/core/storage/data-lock.js';
import { cleanup, tempDir } from '../shared/support/harness.js';
import { buildCli, echoFixture, processesWith, runCli, stopAll, writeConfig } from './cli-harness.js';
import { TSX_LOADER } from '../shared/support/tsx-loader.js';

const dirs: string[] = [];
let dir: string;
let marker: string;
let config: string;

beforeAll(() => buildCli(), 120_000);
afterEach(async () => {
  await stopAll();
  // Whatever a run started, its core ended before the command returned.
  expect(processesWith(marker)).toEqual([]);
  dirs.splice(0).forEach(cleanup);
});

function fresh(): void {
  dir = tempDir('sb-cli-');
  dirs.push(dir);
  marker = randomUUID();
  config = writeConfig(dir, marker);
}

describe('switchboard on a --config file', () => {
  it('lists the tools of both servers as JSON, approving the config launches with --yes and printing them', async () => {
    fresh();
    const r = await runCli(['--config', config, '--yes', 'tools', 'list', '--json']);
    expect(r.code).toBe(EXIT.ok);
    const tools = JSON.parse(r.stdout) as ToolSummary[];
    expect(tools.map((t) => t.name)).toContain('mcp__echo__echo');
    expect(tools.map((t) => t.name)).toContain('mcp__every__echo');
    expect(r.stderr).toContain(`Approving the launch of echo from the config (--yes): ${process.execPath} --import tsx ${echoFixture}`);
  });

  it('calls a tool by its original name on one server and returns the outcome as JSON', async () => {
    fresh();
    const r = await runCli(['--config', config, '--yes', 'call', 'echo', '--server', 'every', '--args', '{"message":"hello"}', '--json']);
    expect(r.code).toBe(EXIT.ok);
    const outcome = JSON.parse(r.stdout) as CallOutcome;
    expect(outcome.status).toBe('ok');
    expect(outcome.presentation.text).toContain('hello');
  });

  it('reads --args from a file, reads a resource and renders a prompt', async () => {
    fresh();
    const argsFile = join(dir, 'args.json');
    writeFileSync(argsFile, '{"a": 2, "b": 3}');
    const add = await runCli(['--config', config, '--yes', 'call', 'add', '--server', 'echo', '--args', `@${argsFile}`]);
    expect(add.code).toBe(EXIT.ok);
    expect(add.stdout.trim()).toBe('5');
    const read = await runCli(['--config', config, '--yes', 'resources', 'read', 'fixture://readme', '--server', 'echo']);
    expect(read.code).toBe(EXIT.ok);
    expect(read.stdout).toContain('Hello from the echo fixture');
    const prompt = await runCli(['--config', config, '--yes', 'prompts', 'get', 'greet', '--args', '{"name":"Ann"}', '--server', 'echo']);
    expect(prompt.code).toBe(EXIT.ok);
    expect(prompt.stdout).toContain('Say hello to Ann');
  });

  it('escapes control characters from server text before they reach the terminal', async () => {
    fresh();
    const r = await runCli([
      '--config',
      config,
      '--yes',
      'call',
      'echo',
      '--server',
      'every',
      '--args',
      '{"message":"a\\u001b]0;owned\\u0007b"}',
    ]);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).not.toContain('\u0007');
  });
});

describe('exit codes from real causes', () => {
  it('usage: an unknown flag, and an unknown tool', async () => {
    fresh();
    expect((await runCli(['tools', 'list', '--bogus'])).code).toBe(EXIT.usage);
    const r = await runCli(['--config', config, '--yes', 'call', 'no_such_tool', '--server', 'echo', '--json']);
    expect(r.code).toBe(EXIT.usage);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, exitCode: EXIT.usage, code: 'not_found' });
  });

  it('connection failure: a command that does not exist, and a launch left unapproved without --yes', async () => {
    fresh();
    const missing = writeConfig(dir, marker, { gone: { command: join(dir, 'no-such-program'), args: [] } });
    const r = await runCli(['--config', missing, '--yes', 'tools', 'list', '--server', 'gone']);
    expect(r.code).toBe(EXIT.connection);
    const unapproved = await runCli(['--config', config, 'call', 'echo', '--server', 'echo', '--args', '{"text":"x"}']);
    expect(unapproved.code).toBe(EXIT.connection);
    expect(unapproved.stderr).toContain('pass --yes');
  });

  it('tool error: arguments the tool rejects', async () => {
    fresh();
    const r = await runCli(['--config', config, '--yes', 'call', 'add', '--server', 'echo', '--args', '{"a":"x"}', '--json']);
    expect(r.code).toBe(EXIT.toolError);
    expect((JSON.parse(r.stdout) as CallOutcome).error?.code).toBe('tool_error');
  });

  it('timeout: a slow tool past --timeout is cancelled', async () => {
    fresh();
    const r = await runCli([
      '--config',
      config,
      '--yes',
      'call',
      'slow',
      '--server',
      'echo',
      '--args',
      '{"ms":20000,"steps":2}',
      '--timeout',
      '0.5',
    ]);
    expect(r.code).toBe(EXIT.timeout);
    expect(r.stderr).toContain('--timeout 0.5 s');
  });

  it('Switchboard failure: the data folder is held by a Switchboard with no control door, and the message says so', async () => {
    fresh();
    const lock = acquireDataLock(dir, { mode: 'headless' });
    try {
      const r = await runCli(['--data-dir', dir, 'servers', 'list']);
      expect(r.code).toBe(EXIT.switchboard);
      expect(r.stderr).toContain('cannot start its own while the folder is in use');
    } finally {
      lock.release();
    }
  });

  describe('authorization needed', () => {
    let http: Server;
    let base = '';
    beforeAll(async () => {
      // The smallest server that asks for an OAuth sign-in: a 401 pointing at metadata, and dynamic registration.
      http = createServer((req, res) => {
        const json = (status: number, body: unknown): void => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (req.url?.startsWith('/.well-known/oauth-protected-resource'))
          return json(200, { resource: `${base}/mcp`, authorization_servers: [base] });
        if (req.url?.startsWith('/.well-known/oauth-authorization-server'))
          return json(200, {
            issuer: base,
            authorization_endpoint: `${base}/authorize`,
            token_endpoint: `${base}/token`,
            registration_endpoint: `${base}/register`,
            response_types_supported: ['code'],
            code_challenge_methods_supported: ['S256'],
          });
        if (req.url === '/register') {
          let body = '';
          req.on('data', (c: Buffer) => (body += c.toString()));
          req.on('end', () => json(201, { ...(JSON.parse(body) as object), client_id: 'cli-test' }));
          return;
        }
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` });
        res.end();
      });
      await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => http.close(() => r())));

    it('prints the authorization URL, and with --json pendingAuth and authUrl', async () => {
      fresh();
      const withAuth = writeConfig(dir, marker, { web: { url: `${base}/mcp` } });
      const r = await runCli(['--config', withAuth, 'tools', 'list', '--server', 'web', '--json']);
      expect(r.code).toBe(EXIT.authorization);
      const answer = JSON.parse(r.stdout) as { pendingAuth: boolean; authUrl: string };
      expect(answer.pendingAuth).toBe(true);
      expect(answer.authUrl.startsWith(`${base}/authorize?`)).toBe(true);
      expect(r.stderr).toContain(`Open this address in a browser to sign in: ${base}/authorize?`);
    });
  });
});

describe('switchboard on a data folder', () => {
  it('adds a pasted command line, refuses to approve without --yes off a terminal, approves with it, then calls', async () => {
    fresh();
    const data = join(dir, 'data');
    // tsx by its path: a server added without a cwd runs in its own folder, away from the checkout.
    const line = `${process.execPath} --import ${TSX_LOADER} ${echoFixture} --marker=${marker}`;
    const added = await runCli(['--data-dir', data, 'servers', 'add', '--id', 'echo', line]);
    expect(added.code).toBe(EXIT.ok);
    const listed = await runCli(['--data-dir', data, 'servers', 'list', '--json']);
    const servers = JSON.parse(listed.stdout) as ServerSummary[];
    expect(servers).toMatchObject([{ id: 'echo', transport: 'stdio', needsApproval: true }]);

    const refused = await runCli(['--data-dir', data, 'servers', 'approve', 'echo']);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stderr).toContain('pass --yes');
    const approved = await runCli(['--data-dir', data, 'servers', 'approve', 'echo', '--yes']);
    expect(approved.code).toBe(EXIT.ok);
    expect(approved.stderr).toContain(`Launch of echo: ${line}`);

    const called = await runCli(['--data-dir', data, 'call', 'mcp__echo__echo', '--args', '{"text":"persisted"}']);
    expect(called.code).toBe(EXIT.ok);
    expect(called.stdout.trim()).toBe('persisted');
  });

  it('servers approve says plainly what a launch also does (npx -c runs a shell string)', async () => {
    fresh();
    const data = join(dir, 'data');
    expect((await runCli(['--data-dir', data, 'servers', 'add', '--id', 'shelly', 'npx -y -c "echo hi"'])).code).toBe(EXIT.ok);
    const shown = await runCli(['--data-dir', data, 'servers', 'approve', 'shelly']);
    expect(shown.code).toBe(EXIT.usage);
    expect(shown.stderr).toContain('warning: npx runs “echo hi” as a shell command line');
  });

  it('imports an mcp.json file and walks the connection doctor for one of its servers', async () => {
    fresh();
    const data = join(dir, 'data');
    const imported = await runCli(['--data-dir', data, 'servers', 'import', config, '--json']);
    expect(imported.code).toBe(EXIT.ok);
    expect(JSON.parse(imported.stdout)).toMatchObject({ added: ['echo', 'every'] });
    const walk = await runCli(['--data-dir', data, 'servers', 'test', 'echo', '--yes', '--json']);
    expect(walk.code).toBe(EXIT.ok);
    expect(JSON.parse(walk.stdout)).toMatchObject({ ok: true, transport: 'stdio' });
  });
});
