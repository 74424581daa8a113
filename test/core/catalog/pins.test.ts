// The tool approvals file: an approval is never dropped silently. A corrupt file is moved aside with a notice (it
// used to read as "no approvals"), unreadable records are kept aside before they are left out, saves are deferred
// and flushed on demand, and a failed write is reported.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppNotice } from '../../../shared/contract.js';
import { JsonFilePinStore, pinKey, type PinRecord } from '../../../electron/core/catalog/pins.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(cleanup));

function setup(): { dir: string; notices: AppNotice[]; open: () => JsonFilePinStore } {
  const dir = tempDir('sb-pins-');
  dirs.push(dir);
  const notices: AppNotice[] = [];
  return { dir, notices, open: () => new JsonFilePinStore(dir, { onNotice: (n) => notices.push(n), delayMs: 60_000 }) };
}

const record = (fingerprint: string): PinRecord => ({ fingerprint, definition: { description: 'd', inputSchema: { type: 'object' } } });

describe('tool approvals file', () => {
  it('defers a save and writes it on flush', async () => {
    const { dir, open } = setup();
    const store = open();
    store.save(new Map([[pinKey('fx', 'echo'), record('abc')]]));
    expect(existsSync(join(dir, 'tool-pins.json'))).toBe(false);
    await store.flush();
    expect(open().load().get(pinKey('fx', 'echo'))?.fingerprint).toBe('abc');
  });

  it('moves a corrupt file aside with a notice instead of reading it as no approvals', () => {
    const { dir, notices, open } = setup();
    writeFileSync(join(dir, 'tool-pins.json'), '{"version":1,"pins":{"fx\\u0000echo":');
    expect(open().load().size).toBe(0);
    const aside = readdirSync(dir).filter((f) => f.startsWith('tool-pins.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(notices).toEqual([expect.objectContaining({ id: 'pins-corrupt', message: expect.stringContaining(aside[0]!) })]);
  });

  it('keeps the file as it was before leaving out records it cannot read', () => {
    const { dir, notices, open } = setup();
    const original = JSON.stringify({ version: 1, pins: { [pinKey('fx', 'a')]: record('good'), [pinKey('fx', 'b')]: { fingerprint: 7 } } });
    writeFileSync(join(dir, 'tool-pins.json'), original);
    const loaded = open().load();
    expect([...loaded.keys()]).toEqual([pinKey('fx', 'a')]);
    const aside = readdirSync(dir).filter((f) => f.startsWith('tool-pins.corrupt-'));
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(original);
    expect(notices[0]!.message).toMatch(/^1 tool approvals could not be read/);
  });

  it('reports a failed write and never rejects', async () => {
    const { dir, notices } = setup();
    writeFileSync(join(dir, 'blocker'), '');
    const store = new JsonFilePinStore(join(dir, 'blocker'), { onNotice: (n) => notices.push(n), delayMs: 60_000 });
    store.save(new Map([[pinKey('fx', 'echo'), record('abc')]]));
    await expect(store.flush()).resolves.toBeUndefined();
    expect(notices).toEqual([expect.objectContaining({ id: 'pins-write-failed', level: 'error' })]);
  });
});
