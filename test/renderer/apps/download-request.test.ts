// An app's ui/download-file request read into files: embedded text and blobs to their exact bytes, a resource link
// read from the app's own server, safe names and types, and refusals (over the limit, too many files, web links,
// bad base64, unknown items) with the reason, all before anyone is asked.
import { describe, expect, it } from 'vitest';
import {
  MAX_DOWNLOAD_BYTES,
  MAX_DOWNLOAD_FILES,
  decodeBase64,
  readDownload,
  safeFileName,
  safeMimeType,
  type ReadOwnResource,
} from '../../../renderer/src/apps/download-request';

const noRead: ReadOwnResource = () => Promise.reject(new Error('not expected'));
const text = (uri: string, body: string, mimeType = 'text/plain') => ({ type: 'resource', resource: { uri, mimeType, text: body } });
const blob = (uri: string, bytes: Uint8Array, mimeType = 'application/octet-stream') => ({
  type: 'resource',
  resource: { uri, mimeType, blob: Buffer.from(bytes).toString('base64') },
});

describe('reading a download request', () => {
  it('embedded text and blobs become files with their exact bytes, names and types', async () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const got = await readDownload(
      [text('file:///exports/report.csv', 'a,b\nÆ,2\n', 'text/csv; charset=utf-8'), blob('file:///x/bytes.bin', all)],
      noRead,
    );
    if (!got.ok) throw new Error(got.reason);
    expect(got.files.map((f) => [f.name, f.mimeType])).toEqual([
      ['report.csv', 'text/csv'],
      ['bytes.bin', 'application/octet-stream'],
    ]);
    expect(new TextDecoder().decode(got.files[0]!.bytes)).toBe('a,b\nÆ,2\n');
    expect([...got.files[1]!.bytes]).toEqual([...all]);
    expect(got.totalBytes).toBe(new TextEncoder().encode('a,b\nÆ,2\n').byteLength + 256);
  });

  it('a resource link is read from the app’s own server, named by the link', async () => {
    const asked: string[] = [];
    const read: ReadOwnResource = async (uri) => {
      asked.push(uri);
      return { contents: [{ uri, text: 'A note' }] };
    };
    const got = await readDownload([{ type: 'resource_link', uri: 'res://apps/note', name: 'note.txt', mimeType: 'text/plain' }], read);
    expect(asked).toEqual(['res://apps/note']);
    expect(got).toMatchObject({ ok: true, files: [{ name: 'note.txt', mimeType: 'text/plain' }] });
    if (got.ok) expect(new TextDecoder().decode(got.files[0]!.bytes)).toBe('A note');
  });

  it('a link that cannot be read is refused with the server’s reason', async () => {
    const got = await readDownload([{ type: 'resource_link', uri: 'res://gone', name: 'x' }], () =>
      Promise.reject(new Error('Resource not found')),
    );
    expect(got).toEqual({ ok: false, reason: 'The linked resource could not be read: Resource not found' });
  });

  it('over the limit is refused with both sizes, before a blob is decoded', async () => {
    const over = 'AAAA'.repeat(Math.ceil((MAX_DOWNLOAD_BYTES + 1) / 3));
    const got = await readDownload([{ type: 'resource', resource: { uri: 'file:///big.bin', blob: over } }], noRead);
    expect(got.ok).toBe(false);
    if (!got.ok)
      expect(got.reason).toMatch(/^The download is at least 2\.0 MiB, over the 2 MiB limit for a download from an app; nothing was saved$/);
    // The limit is for the whole request: two files that each fit but not together are refused too.
    const half = new Uint8Array(MAX_DOWNLOAD_BYTES / 2 + 1);
    const both = await readDownload([blob('file:///a', half), blob('file:///b', half)], noRead);
    expect(both).toMatchObject({ ok: false, reason: expect.stringMatching(/over the 2 MiB limit/) });
    // Exactly at the limit is allowed.
    expect((await readDownload([blob('file:///c', new Uint8Array(MAX_DOWNLOAD_BYTES))], noRead)).ok).toBe(true);
  });

  it('refuses nothing, too many files, web and file links, bad base64 and unknown items, saying why', async () => {
    const cases: [unknown, RegExp][] = [
      [[], /asked to download nothing/],
      ['x', /asked to download nothing/],
      [Array(MAX_DOWNLOAD_FILES + 1).fill(text('file:///a', 'a')), new RegExp(`at most ${MAX_DOWNLOAD_FILES}`)],
      [[{ type: 'resource_link', uri: 'https://example.com/file.exe' }], /not a web or file address/],
      [[{ type: 'resource_link', uri: 'file:///etc/passwd' }], /not a web or file address/],
      [[{ type: 'resource', resource: { uri: 'file:///b.bin', blob: 'not base64!' } }], /b\.bin: its blob is not base64/],
      [[{ type: 'resource', resource: { uri: 'file:///e' } }], /neither text nor blob/],
      [[{ type: 'image', data: 'AAAA', mimeType: 'image/png' }], /Only embedded resources and resource links/],
      [[null], /not a resource/],
    ];
    for (const [contents, reason] of cases) {
      const got = await readDownload(contents, noRead);
      expect(got.ok, JSON.stringify(contents).slice(0, 80)).toBe(false);
      if (!got.ok) expect(got.reason).toMatch(reason);
    }
  });

  it('two files of one request never share a name', async () => {
    const got = await readDownload([text('file:///a/r.csv', '1'), text('file:///b/R.csv', '2'), text('file:///c/r.csv', '3')], noRead);
    expect(got.ok && got.files.map((f) => f.name)).toEqual(['r.csv', 'R (2).csv', 'r (3).csv']);
  });
});

describe('names, types and base64', () => {
  it('a name is one file name: no folders, control or reserved characters, no leading dots, never empty', () => {
    expect(safeFileName('file:///exports/q3%20report.csv')).toBe('q3 report.csv');
    expect(safeFileName('../../.ssh/authorized_keys')).toBe('authorized_keys');
    expect(safeFileName('C:\\Windows\\evil.bat')).toBe('evil.bat');
    expect(safeFileName('..hidden')).toBe('hidden');
    expect(safeFileName('a\u0000b\u202ec<d>.txt')).toBe('a_b_c_d_.txt');
    expect(safeFileName('ui://apps/')).toBe('download');
    expect(safeFileName(42)).toBe('download');
    expect(safeFileName('x'.repeat(300))).toHaveLength(120);
  });

  it('a type is a plain type/subtype, or application/octet-stream', () => {
    expect(safeMimeType('Text/CSV; charset=utf-8')).toBe('text/csv');
    expect(safeMimeType('text/html<script>')).toBe('application/octet-stream');
    expect(safeMimeType('nonsense')).toBe('application/octet-stream');
    expect(safeMimeType(undefined)).toBe('application/octet-stream');
  });

  it('base64 decodes to the exact bytes, and anything else is undefined', () => {
    expect([...decodeBase64('AAEC/w==')!]).toEqual([0, 1, 2, 255]);
    expect([...decodeBase64('AAEC\n/w==')!]).toEqual([0, 1, 2, 255]);
    expect(decodeBase64('A')).toBeUndefined();
    expect(decodeBase64('@@@@')).toBeUndefined();
  });
});
