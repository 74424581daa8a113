// `--wait-for-auth` end to end: the built command against a real OAuth authorization server and a protected SDK v2
// MCP server (test/fixtures/auth). The command prints the authorization URL (and pendingAuth as JSON), waits, and
// finishes when the redirect reaches its loopback listener or is pasted on stdin; without a sign-in it exits with the
// "authorization needed" code when the wait runs out. With a Secret Service (run under dbus-run-session with
// gnome-keyring unlocked) the tokens are shown to land in the keychain: a second command needs no sign-in.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolSummary } from '../../shared/domains/catalog.js';
import { EXIT } from '../../electron/cli/exit-codes.js';
import { KEYCHAIN_SERVICE, KeytarCredentialStore } from '../../electron/platform/keytar-credential-store.js';
import type { CredentialStore } from '../../electron/core/ports.js';
import { cleanup, tempDir } from '../shared/support/harness.js';
import { startWorld, type World } from '../fixtures/auth/oauth-world.js';
import { buildCli, runCli, startCli, stopAll } from './cli-harness.js';
import { writeFileSync } from 'node:fs';

const dirs: string[] = [];
let world: World;
let keychain: CredentialStore | null = null;
const ids: string[] = [];

beforeAll(async () => {
  buildCli();
  world = await startWorld({ tokenPrefix: 'CANARY_cli_' });
  const opened = await KeytarCredentialStore.open(KEYCHAIN_SERVICE, 3000);
  keychain = opened.ok ? opened.store : null;
}, 120_000);
afterEach(async () => {
  await stopAll();
  dirs.splice(0).forEach(cleanup);
});
afterAll(async () => {
  // The keychain entries of this file's servers only (their ids are random).
  if (keychain?.accounts) {
    for (const account of await keychain.accounts()) if (ids.some((id) => account.includes(id))) await keychain.delete(account);
  }
  await world.close();
});

function configFor(id: string): string {
  const dir = tempDir('sb-cli-auth-');
  dirs.push(dir);
  const file = join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { [id]: { url: world.mcpUrl } } }));
  return file;
}

function freshId(): string {
  const id = `oa${randomBytes(4).toString('hex')}`;
  ids.push(id);
  return id;
}

describe('switchboard --wait-for-auth against a real authorization server', () => {
  it('prints pendingAuth with the URL, waits, and lists the tools once the browser is sent back to the listener', async () => {
    const id = freshId();
    const cli = startCli(['--config', configFor(id), 'tools', 'list', '--server', id, '--json', '--wait-for-auth', '60']);
    const [line] = await cli.waitFor(/^\{"pendingAuth":true.*\}$/m);
    const pending = JSON.parse(line) as { pendingAuth: boolean; authUrl: string; serverId: string; waitingS: number };
    expect(pending).toMatchObject({ pendingAuth: true, serverId: id, waitingS: 60 });
    expect(pending.authUrl.startsWith(`${world.issuer}/authorize?`)).toBe(true);
    await cli.waitFor(/Open this address in a browser to sign in: http:\/\/127\.0\.0\.1:\d+\/authorize\?/);

    // The browser: consent at the authorization server, then follow the redirect to the command's loopback listener.
    const redirect = await world.consent(pending.authUrl);
    expect(new URL(redirect).hostname).toBe('127.0.0.1');
    const landed = await fetch(redirect);
    expect(landed.status).toBe(200);
    await landed.text();

    const r = await cli.done;
    expect(r.code).toBe(EXIT.ok);
    const lines = r.stdout.trim().split('\n');
    const tools = JSON.parse(lines[lines.length - 1] ?? '') as ToolSummary[];
    expect(tools.map((t) => t.name)).toEqual([`mcp__${id}__whoami`]);
    expect(world.tokenRequests.authorization_code).toBeGreaterThanOrEqual(1);
    // No token reaches the output.
    expect(r.stdout + r.stderr).not.toContain('CANARY_cli_');
  });

  it('completes with the redirect address pasted on stdin (a browser that cannot reach the listener)', async () => {
    const id = freshId();
    const cli = startCli(['--config', configFor(id), 'call', `mcp__${id}__whoami`, '--wait-for-auth', '60']);
    const [, authUrl] = (await cli.waitFor(/Open this address in a browser to sign in: (\S+)/)) as unknown as [string, string];
    await cli.waitFor(/paste the address the browser was sent back to/);
    const redirect = await world.consent(authUrl);
    cli.type('not an address\n');
    await cli.waitFor(/That is not the address the browser was sent back to/);
    cli.type(`${redirect}\n`);
    const r = await cli.done;
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout.trim()).toBe('alice');
  });

  it('exits with "authorization needed" and pendingAuth when no sign-in comes within the wait', async () => {
    const id = freshId();
    const r = await runCli(['--config', configFor(id), 'tools', 'list', '--server', id, '--json', '--wait-for-auth', '1']);
    expect(r.code).toBe(EXIT.authorization);
    const answers = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(answers[0]).toMatchObject({ pendingAuth: true, serverId: id });
    expect(answers.at(-1)).toMatchObject({ ok: false, exitCode: EXIT.authorization, code: 'auth_required', pendingAuth: true });
    expect(String(answers.at(-1)?.['message'])).toContain('no sign-in within --wait-for-auth 1 s');
  });

  it('keeps the tokens in the credential store: the next command on the data folder needs no sign-in', async (ctx) => {
    if (keychain === null) return ctx.skip('no Secret Service is reachable (run inside dbus-run-session with gnome-keyring unlocked)');
    const id = freshId();
    const data = tempDir('sb-cli-auth-data-');
    dirs.push(data);
    const keyring = { SWITCHBOARD_CREDENTIALS: '' };
    expect((await runCli(['--data-dir', data, 'servers', 'add', '--id', id, world.mcpUrl], keyring)).code).toBe(EXIT.ok);
    const cli = startCli(['--data-dir', data, 'call', `mcp__${id}__whoami`, '--wait-for-auth', '60'], keyring);
    const [, authUrl] = (await cli.waitFor(/Open this address in a browser to sign in: (\S+)/)) as unknown as [string, string];
    await (await fetch(await world.consent(authUrl))).text();
    expect((await cli.done).code).toBe(EXIT.ok);
    expect((await keychain.accounts?.())?.some((a) => a.includes(id))).toBe(true);

    const before = world.authorizationRequests.length;
    const again = await runCli(['--data-dir', data, 'call', `mcp__${id}__whoami`], keyring);
    expect(again.code).toBe(EXIT.ok);
    expect(again.stdout.trim()).toBe('alice');
    expect(world.authorizationRequests.length).toBe(before);
  });
});
