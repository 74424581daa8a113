// Checks of a read ui:// resource: MIME type, budget, content shape, metadata (pure; the fixture tests read real ones).
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { checkUiResource, isAppMimeType, requestedPermissions } from '../../../electron/core/apps/ui-resource.js';
import { toolResourceUri, toolUi, toolVisibility } from '../../../electron/core/apps/tool-ui.js';

const MIME = 'text/html;profile=mcp-app';
const fail = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
};

describe('isAppMimeType', () => {
  it.each([MIME, 'text/html; profile=mcp-app', 'TEXT/HTML;PROFILE="mcp-app"', 'text/html;charset=utf-8;profile=mcp-app'])(
    'accepts %s',
    (m) => expect(isAppMimeType(m)).toBe(true),
  );
  it.each(['text/html', 'text/html;profile=other', 'application/xhtml+xml;profile=mcp-app', undefined, 7])('refuses %s', (m) =>
    expect(isAppMimeType(m)).toBe(false),
  );
});

describe('checkUiResource', () => {
  const uri = 'ui://x/app.html';

  it('returns the HTML, its hash and the checked metadata', () => {
    const r = checkUiResource(
      {
        contents: [
          {
            uri,
            mimeType: MIME,
            text: '<p>hi</p>',
            _meta: {
              ui: {
                csp: { connectDomains: ['https://api.example.com', 'http://bad.example.com'] },
                permissions: { camera: {}, clipboardWrite: true, usb: {} },
                prefersBorder: false,
                domain: '  a904794854a047f6.example-content.com\u0007 ',
              },
            },
          },
        ],
      },
      uri,
      1000,
      's',
    );
    expect(r.html).toBe('<p>hi</p>');
    expect(r.bytes).toBe(9);
    expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.csp.connectDomains).toEqual(['https://api.example.com']);
    expect(r.cspRefused).toHaveLength(1);
    expect(r.requested).toEqual(['camera', 'clipboardWrite']);
    expect(r.prefersBorder).toBe(false);
    // The dedicated origin asked for is kept (sanitized) to be shown; it is never used as the sandbox origin.
    expect(r.domain).toMatch(/^a904794854a047f6\.example-content\.com\S?$/);
    expect(r.domain).not.toContain('\u0007');
  });

  it('decodes a base64 blob', () => {
    const r = checkUiResource({ contents: [{ uri, mimeType: MIME, blob: Buffer.from('<p>blob</p>').toString('base64') }] }, uri, 1000, 's');
    expect(r.html).toBe('<p>blob</p>');
  });

  it('refuses a wrong MIME type, naming what was served', () => {
    const err = fail(() => checkUiResource({ contents: [{ uri, mimeType: 'text/html', text: '<p/>' }] }, uri, 1000, 's'));
    expect(err.code).toBe('app_invalid');
    expect(err.message).toContain('"text/html"');
    expect(err.message).toContain(MIME);
  });

  it('refuses text and blobs over the budget before decoding', () => {
    expect(fail(() => checkUiResource({ contents: [{ uri, mimeType: MIME, text: 'x'.repeat(2000) }] }, uri, 1000, 's')).code).toBe(
      'limit_exceeded',
    );
    const blob = Buffer.alloc(2000, 1).toString('base64');
    const err = fail(() => checkUiResource({ contents: [{ uri, mimeType: MIME, blob }] }, uri, 1000, 's'));
    expect(err.code).toBe('limit_exceeded');
    expect(err.message).toMatch(/over the 1000 bytes app budget/);
  });

  it('refuses empty or missing content', () => {
    expect(fail(() => checkUiResource({ contents: [] }, uri, 1000, 's')).code).toBe('not_found');
    expect(fail(() => checkUiResource({ contents: [{ uri, mimeType: MIME, text: '  ' }] }, uri, 1000, 's')).code).toBe('app_invalid');
  });

  it('keeps only known permissions', () => {
    expect(requestedPermissions({ camera: {}, microphone: false, geolocation: null, midi: {} })).toEqual(['camera']);
    expect(requestedPermissions('camera')).toEqual([]);
  });
});

describe('tool UI metadata', () => {
  it('reads the nested and the older flat resource URI', () => {
    expect(toolResourceUri({ _meta: { ui: { resourceUri: 'ui://a/b.html' } } })).toBe('ui://a/b.html');
    expect(toolResourceUri({ _meta: { 'ui/resourceUri': 'ui://a/old.html' } })).toBe('ui://a/old.html');
  });

  it('gives no app for a URI that is not ui:// or carries control characters', () => {
    expect(toolResourceUri({ _meta: { ui: { resourceUri: 'https://evil.example.com/' } } })).toBeUndefined();
    expect(toolResourceUri({ _meta: { ui: { resourceUri: 'ui://a/\u202Eb.html' } } })).toBeUndefined();
    expect(toolResourceUri({ _meta: { ui: { resourceUri: `ui://${'a'.repeat(5000)}` } } })).toBeUndefined();
  });

  it('defaults visibility to model and app and drops unknown entries', () => {
    expect(toolVisibility({})).toEqual(['model', 'app']);
    expect(toolVisibility({ _meta: { ui: { visibility: ['app', 'robot'] } } })).toEqual(['app']);
    expect(toolUi({ _meta: { ui: { visibility: ['model'] } } })).toEqual({ visibility: ['model'] });
    expect(toolUi({ _meta: { other: 1 } })).toBeUndefined();
  });
});
