// The control door of a running headless Switchboard, with real processes: control.json is written with mode 0600 and
// names this launch (its pid, a loopback URL, a fresh token each launch); the door relays a contract call to the
// running core and refuses a wrong token, any Origin, a foreign Host, a method outside the contract and a bad body;
// SIGTERM removes the file.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONTROL_CALL_PATH,
  CONTROL_FILE,
  CONTROL_HELLO_PATH,
  parseControlFile,
  type ControlFile,
} from '../../electron/shell/control-file.js';
import { launch, stopLaunched } from './support/headless.js';

afterEach(stopLaunched);

interface Answer {
  status: number;
  body: string;
}

/** One raw HTTP request to the door (node:http: the Host header is ours to set). */
function send(
  file: ControlFile,
  path: string,
  headers: Record<string, string>,
  body?: string,
  method = body === undefined ? 'GET' : 'POST',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${file.url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const call = (file: ControlFile, method: string, args: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
  send(
    file,
    CONTROL_CALL_PATH,
    { Authorization: `Bearer ${file.token}`, 'Content-Type': 'application/json', ...headers },
    JSON.stringify({ method, args }),
  );

function readFile(dataDir: string): ControlFile {
  const file = parseControlFile(readFileSync(join(dataDir, CONTROL_FILE), 'utf8'));
  if (!file) throw new Error('control.json does not have the expected content');
  return file;
}

describe('the control door', () => {
  it('is published in control.json (0600, this launch), relays the contract, refuses what is not the command, and goes at shutdown', async () => {
    const app = await launch();
    const path = join(app.dataDir, CONTROL_FILE);
    // Written before the address is printed.
    expect(existsSync(path)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const file = readFile(app.dataDir);
    expect(file.pid).toBe(app.child.pid);
    expect(file.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    // The door answers with the contract's envelope, from the running core (what the bridge sees, it sees).
    await app.bridge.rpc('servers.add', {
      config: { id: 'off', name: 'off', enabled: false, transport: { type: 'http', url: 'http://127.0.0.1:9/mcp' } },
    });
    const listed = await call(file, 'servers.list', {});
    expect(listed.status).toBe(200);
    const envelope = JSON.parse(listed.body) as { ok: boolean; value: { id: string }[] };
    expect(envelope.ok).toBe(true);
    expect(envelope.value.map((s) => s.id)).toEqual(['off']);

    // The closed method set and the contract's schemas, as the core checks them for every other door.
    const unknown = JSON.parse((await call(file, 'process.exit', {})).body) as { ok: boolean; error: { code: string } };
    expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
    const invalid = JSON.parse((await call(file, 'servers.get', { id: 42 })).body) as { ok: boolean; error: { code: string } };
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_request' } });

    // Refused before anything is read: a wrong or missing token, any Origin, a foreign Host, no JSON.
    expect((await call({ ...file, token: file.token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }, 'servers.list', {})).status).toBe(401);
    expect((await send(file, CONTROL_HELLO_PATH, {})).status).toBe(401);
    expect((await call(file, 'servers.list', {}, { Origin: file.url })).status).toBe(403);
    expect((await call(file, 'servers.list', {}, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await call(file, 'servers.list', {}, { Host: `evil.example:${new URL(file.url).port}` })).status).toBe(421);
    expect((await call(file, 'servers.list', {}, { 'Content-Type': 'text/plain' })).status).toBe(400);
    const garbled = await send(file, CONTROL_CALL_PATH, { Authorization: `Bearer ${file.token}`, 'Content-Type': 'application/json' }, '{');
    expect(garbled.status).toBe(400);
    expect((await send(file, CONTROL_HELLO_PATH, { Authorization: `Bearer ${file.token}` })).status).toBe(200);
    expect((await send(file, '/other', { Authorization: `Bearer ${file.token}` })).status).toBe(404);

    // SIGTERM: the file goes with the door (the bounded shutdown runs, exit 0).
    const exited = new Promise<number | null>((resolve) => app.child.once('exit', (code) => resolve(code)));
    app.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(path)).toBe(false);
  }, 60_000);

  it('gets a fresh token each launch, and replaces a file a dead launch left', async () => {
    const first = await launch();
    const before = readFile(first.dataDir);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGTERM');
    await exited;
    // What a shell that was killed leaves behind: its file, naming a pid that is gone.
    writeFileSync(join(first.dataDir, CONTROL_FILE), JSON.stringify(before), { mode: 0o600 });
    const second = await launch({}, first.dataDir);
    const after = readFile(second.dataDir);
    expect(after.pid).toBe(second.child.pid);
    expect(after.token).not.toBe(before.token);
    expect((await send(after, CONTROL_HELLO_PATH, { Authorization: `Bearer ${before.token}` })).status).toBe(401);
    expect((await send(after, CONTROL_HELLO_PATH, { Authorization: `Bearer ${after.token}` })).status).toBe(200);
  }, 60_000);
});
