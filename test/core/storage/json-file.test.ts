// The core's one atomic JSON writer and quarantining reader.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  copyAside,
  JsonFileWriter,
  JsonText,
  moveAside,
  readJsonFile,
  removeLeftoverTemps,
  writeJsonAtomic,
  writeJsonAtomicSync,
} from '../../../electron/core/storage/json-file.js';

const dirs: string[] = [];
const temp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-json-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const asObject = (raw: unknown): { n: number } => {
  if (typeof raw !== 'object' || raw === null || typeof (raw as { n?: unknown }).n !== 'number') throw new Error('n is missing');
  return raw as { n: number };
};

describe('writeJsonAtomic', () => {
  it('writes owner-only JSON and leaves no temp file', async () => {
    const dir = temp();
    const file = join(dir, 'sub', 'a.json');
    await writeJsonAtomic(file, { n: 1 });
    writeJsonAtomicSync(join(dir, 'b.json'), { n: 2 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ n: 1 });
    expect(JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8'))).toEqual({ n: 2 });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'sub'))).toEqual(['a.json']);
  });

  it('removes its temp file when the value cannot be serialised', async () => {
    const dir = temp();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    await expect(writeJsonAtomic(join(dir, 'c.json'), cyclic)).rejects.toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('readJsonFile', () => {
  it('tells a missing file from a good one and accepts a UTF-8 BOM', () => {
    const dir = temp();
    expect(readJsonFile(join(dir, 'x.json'), asObject)).toEqual({ kind: 'missing' });
    writeFileSync(join(dir, 'x.json'), '\ufeff{"n":3}');
    expect(readJsonFile(join(dir, 'x.json'), asObject)).toEqual({ kind: 'ok', value: { n: 3 } });
  });

  it.each([
    ['empty', ''],
    ['not JSON', '{"n":'],
    ['invalid', '{"m":1}'],
  ])('moves a %s file aside byte for byte with the reason', (_label, body) => {
    const dir = temp();
    const file = join(dir, 'x.json');
    writeFileSync(file, body);
    const result = readJsonFile(file, asObject, new Date('2026-01-02T03:04:05.678Z'));
    expect(result.kind).toBe('quarantined');
    if (result.kind !== 'quarantined') return;
    expect(result.backup).toBe(join(dir, 'x.corrupt-2026-01-02T03-04-05-678Z.json'));
    expect(readFileSync(result.backup, 'utf8')).toBe(body);
    expect(result.reason.length).toBeGreaterThan(3);
  });

  it('never overwrites an earlier backup made in the same millisecond', () => {
    const dir = temp();
    const file = join(dir, 'x.json');
    const at = new Date('2026-01-02T03:04:05.678Z');
    writeFileSync(file, 'one');
    const first = moveAside(file, at);
    writeFileSync(file, 'two');
    const second = moveAside(file, at);
    expect(second).not.toBe(first);
    expect(readFileSync(first, 'utf8')).toBe('one');
    expect(readFileSync(second, 'utf8')).toBe('two');
  });
});

describe('JsonFileWriter', () => {
  it('coalesces scheduled saves and flush puts the latest value on disk', async () => {
    const dir = temp();
    const writer = new JsonFileWriter(join(dir, 'w.json'), { delayMs: 60_000 });
    let n = 0;
    for (let i = 0; i < 5; i += 1) writer.schedule(() => ({ n: (n += 1) }));
    expect(writer.pending).toBe(true);
    await writer.flush();
    expect(writer.pending).toBe(false);
    // The snapshot is taken when the write starts, once.
    expect(JSON.parse(readFileSync(join(dir, 'w.json'), 'utf8'))).toEqual({ n: 1 });
    expect(n).toBe(1);
  });

  it('flush rejects when the write fails', async () => {
    const dir = temp();
    writeFileSync(join(dir, 'blocker'), 'a file where a folder is needed');
    const writer = new JsonFileWriter(join(dir, 'blocker', 'w.json'), { delayMs: 60_000 });
    writer.schedule(() => ({ n: 1 }));
    await expect(writer.flush()).rejects.toThrow();
  });
});

describe('JsonText, copyAside and removeLeftoverTemps', () => {
  it('writes pre-serialised text as-is', async () => {
    const dir = temp();
    await writeJsonAtomic(join(dir, 'a.json'), new JsonText('{"pre":true}'));
    writeJsonAtomicSync(join(dir, 'b.json'), new JsonText('[1]'));
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('{"pre":true}');
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe('[1]');
  });

  it('copies a file aside byte for byte and leaves the original in place', () => {
    const dir = temp();
    const file = join(dir, 'x.json');
    writeFileSync(file, 'original');
    const backup = copyAside(file, new Date('2026-01-02T03:04:05.678Z'));
    expect(backup).toBe(join(dir, 'x.corrupt-2026-01-02T03-04-05-678Z.json'));
    expect(readFileSync(backup, 'utf8')).toBe('original');
    expect(readFileSync(file, 'utf8')).toBe('original');
    if (process.platform !== 'win32') expect(statSync(backup).mode & 0o777).toBe(0o600);
  });

  it('removes temps of dead writers and old temps, keeps a fresh temp of a running writer and other files', () => {
    const dir = temp();
    const file = join(dir, 'x.json');
    const names = {
      older: 'x.json.tmp-1733000000abc123',
      dead: 'x.json.tmp-2147483646-1-1',
      live: `x.json.tmp-${process.pid}-${Date.now()}-1`,
      other: 'y.json.tmp-1-1-1',
    };
    for (const name of Object.values(names)) writeFileSync(join(dir, name), '{');
    expect(removeLeftoverTemps(file).sort()).toEqual([names.older, names.dead].sort());
    expect(readdirSync(dir).sort()).toEqual([names.live, names.other].sort());
    // An hour later even our own temp counts as a leftover.
    expect(removeLeftoverTemps(file, Date.now() + 3_600_000)).toEqual([names.live]);
  });
});
