// Saved calls as Playwright specs: the text is valid TypeScript whatever the strings hold, secrets are referenced by
// environment variable name only, and bad requests get typed errors.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  exportCallsAsTest,
  renderPlaywrightSpec,
  tsString,
  tsValue,
  type ExportSources,
} from '../../../electron/core/calls/export-test.js';
import { ServerConfigSchema, type ServerConfig } from '../../../shared/config.js';
import type { HistoryEntry } from '../../../shared/domains/calls.js';
import { AppError } from '../../../shared/errors.js';

const HOSTILE = [
  'plain',
  'double " quote',
  "single ' quote",
  'back`tick`',
  '${process.exit(1)}',
  '`; process.exit(1); `',
  '"); process.exit(1); ("',
  'new\nline\r\nand\ttab',
  '*/ process.exit(1); /*',
  '// comment',
  'line\u2028separator\u2029paragraph',
  'nul\u0000byte',
  'lone \ud800 surrogate',
  '\\"escaped',
  '</script><script>alert(1)</script>',
  'ünïcödé 😀',
];

const evaluate = (expr: string): unknown => new Function(`return (${expr});`)() as unknown;

describe('string and value literals', () => {
  it('round-trips every hostile string exactly', () => {
    for (const s of HOSTILE) {
      const lit = tsString(s);
      expect(lit).not.toMatch(/[\n\r\u2028\u2029]/);
      expect(evaluate(lit)).toBe(s);
    }
  });

  it('round-trips values, hostile keys included, and a __proto__ key stays an own property', () => {
    const value = JSON.parse(JSON.stringify({ a: HOSTILE, nested: { 'k"}`${': 'v', n: [1, -2.5, true, null, {}] }, '*/': '/*' })) as Record<
      string,
      unknown
    >;
    const proto = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    expect(evaluate(tsValue(value))).toEqual(value);
    const back = evaluate(tsValue(proto)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(back, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

function entry(over: Partial<HistoryEntry> & { callId: string }): HistoryEntry {
  return {
    serverId: 'srv',
    tool: 'mcp__srv__echo',
    originalName: 'echo',
    arguments: {},
    startedAt: 0,
    durationMs: 1,
    status: 'ok',
    presentation: { isError: false, text: '', truncated: false, media: [], notices: [], links: [], resources: [] },
    ...over,
  };
}

const stdioServer: ServerConfig = ServerConfigSchema.parse({
  id: 'srv',
  name: 'Srv */ `${x}`',
  transport: { type: 'stdio', command: 'node', args: ['server.js', HOSTILE[5]], env: { API_TOKEN: { secret: true }, MODE: 'test' } },
});

function sources(
  entries: HistoryEntry[],
  servers: ServerConfig[],
  opts: { structured?: Record<string, unknown>; bearer?: boolean } = {},
): ExportSources {
  return {
    entry: (id) => entries.find((e) => e.callId === id),
    server: (id) => {
      const s = servers.find((x) => x.id === id);
      if (!s) throw new AppError('not_found', `No server with id "${id}"`);
      return s;
    },
    structuredContent: (id) => opts.structured?.[id],
    usesBearer: async () => opts.bearer === true,
  };
}

/** Parses the spec; returns its syntax errors and the string literal values of every test(...) title. */
function parseSpec(text: string): { errors: string[]; titles: string[]; calls: string[] } {
  const file = ts.createSourceFile('x.spec.ts', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const diags = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  const titles: string[] = [];
  const calls: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      calls.push(n.expression.getText(file));
      if (n.expression.getText(file) === 'test' && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) titles.push(n.arguments[0].text);
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return { errors: diags.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), titles, calls };
}

describe('calls.exportTest', () => {
  it('writes one valid test per call whatever the strings hold; the secret is read from the environment', async () => {
    const entries = HOSTILE.map((s, i) =>
      entry({
        callId: `c${i}`,
        savedAs: s,
        arguments: { text: s, [s]: [s] },
        presentation: { ...entry({ callId: 'x' }).presentation, text: s },
      }),
    );
    const out = await exportCallsAsTest(sources(entries, [stdioServer]), {
      callIds: entries.map((e) => e.callId),
      title: HOSTILE.join(' '),
    });
    const parsed = parseSpec(out.text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.titles).toEqual(HOSTILE.map((s) => `${s} (mcp__srv__echo)`));
    // Only the calls the template makes: nothing injected by a string.
    expect(new Set(parsed.calls)).toEqual(
      new Set([
        'test.describe',
        'test',
        'switchboard.setUpServer',
        'requireEnv',
        'switchboard.connect',
        'switchboard.callTool',
        'expect',
        "expect(shown.status, 'the call succeeds as it did when saved').toBe",
        'expect(shown.text).toBe',
      ]),
    );
    expect(out.text).toContain(`import { expect, requireEnv, test } from 'switchboard/testing';`);
    expect(out.text).toMatch(/"API_TOKEN": \{\s*"secret": true,\s*"value": requireEnv\("API_TOKEN", "API_TOKEN of server srv"\)/);
    expect(out.text).toContain('"MODE": "test"');
    expect(out.text).not.toContain('"timeouts"'); // defaults are left out
    expect(out.text).toContain('requireEnv("API_TOKEN", "API_TOKEN of server srv")');
    expect(out.fileName).toMatch(/^[a-z0-9-]+\.spec\.ts$/);
  });

  it('asserts picked structured fields from the full result, and reads header secrets and a bearer token from the environment', async () => {
    const http = ServerConfigSchema.parse({
      id: 'web',
      name: 'Web',
      transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Api-Key': 'sk-live-123', 'X-Trace': 'on' } },
    });
    const e = entry({ callId: 'w', serverId: 'web', tool: 'mcp__web__weather', savedAs: 'Weather' });
    const out = await exportCallsAsTest(
      sources([e], [http], { structured: { w: { temperature: 33, conditions: 'Cloudy', extra: 'x' } }, bearer: true }),
      {
        callIds: ['w'],
        assertions: [{ callId: 'w', fields: ['temperature', 'conditions'] }],
      },
    );
    expect(parseSpec(out.text).errors).toEqual([]);
    expect(out.text).not.toContain('sk-live-123');
    // A secret header is re-entered as a secret ({secret, value}) read from the environment.
    expect(out.text).toContain('"value": requireEnv("WEB_X_API_KEY", "header X-Api-Key of server web")');
    expect(out.text).toContain('"X-Trace": "on"');
    expect(out.text).toContain(
      `await bridge['auth.setBearer']({ id: "web", token: requireEnv("WEB_BEARER_TOKEN", "bearer token of server web") });`,
    );
    expect(out.text).toContain('expect(structured["temperature"]).toEqual(33);');
    expect(out.text).toContain('expect(structured["conditions"]).toEqual("Cloudy");');
    expect(out.text).not.toContain('extra');
    expect(out.text).not.toContain('expect(shown.text)');
    expect(out.fileName).toBe('weather.spec.ts');
  });

  it('reads a key in the server address query from the environment, keeping the other parameters', async () => {
    const web = ServerConfigSchema.parse({
      id: 'web',
      name: 'Web',
      transport: { type: 'http', url: 'http://127.0.0.1:9/mcp?api_key=sk-q-999&region=eu' },
    });
    const e = entry({ callId: 'q', serverId: 'web', tool: 'mcp__web__echo' });
    const out = await exportCallsAsTest(sources([e], [web]), { callIds: ['q'] });
    expect(parseSpec(out.text).errors).toEqual([]);
    expect(out.text).not.toContain('sk-q-999');
    expect(out.text).toContain(
      '"url": "http://127.0.0.1:9/mcp?api_key=" + encodeURIComponent(requireEnv("WEB_URL_API_KEY", "URL parameter api_key of server web")) + "&region=eu"',
    );
    expect(out.text).toContain(`import { expect, requireEnv, test } from 'switchboard/testing';`);
  });

  it("writes this machine's Node and paths under the home folder as expressions that hold where the spec runs", () => {
    const local = ServerConfigSchema.parse({
      id: 'loc',
      name: 'Local',
      transport: {
        type: 'stdio',
        command: '/opt/node-22/bin/node',
        args: ['/home/tester/proj/server.js', '--flag', '/etc/x.conf'],
        cwd: '/home/tester/proj',
      },
    });
    const text = renderPlaywrightSpec(
      [
        {
          entry: entry({ callId: 'l', serverId: 'loc', tool: 'mcp__loc__echo' }),
          server: local,
          assertion: { callId: 'l', text: true },
          bearer: false,
        },
      ],
      'Local',
      '/home/tester',
    );
    expect(parseSpec(text).errors).toEqual([]);
    expect(text).toContain('"command": process.execPath');
    expect(text).toContain('join(homedir(), "proj/server.js")');
    expect(text).toContain('"cwd": join(homedir(), "proj")');
    expect(text).toContain('"/etc/x.conf"');
    expect(text).not.toContain('/home/tester');
    expect(text).toContain("import { homedir } from 'node:os';");
    expect(text).toContain("import { join } from 'node:path';");
  });

  it('refuses what it cannot export with typed errors', async () => {
    const ok = entry({ callId: 'ok', presentation: { ...entry({ callId: 'x' }).presentation, text: 'long', truncated: true } });
    const failed = entry({ callId: 'bad', status: 'error' });
    const src = sources([ok, failed], [stdioServer]);
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'resolved',
        (e: unknown) => (e instanceof AppError ? e.code : String(e)),
      );
    expect(await code(exportCallsAsTest(src, { callIds: ['nope'] }))).toBe('not_found');
    expect(await code(exportCallsAsTest(src, { callIds: ['bad'] }))).toBe('invalid_request');
    expect(await code(exportCallsAsTest(src, { callIds: ['ok'] }))).toBe('invalid_request'); // shortened text
    expect(await code(exportCallsAsTest(src, { callIds: ['ok'], assertions: [{ callId: 'ok', fields: ['a'] }] }))).toBe('invalid_request');
    expect(await code(exportCallsAsTest(src, { callIds: ['ok'], assertions: [{ callId: 'ok', text: false }] }))).toBe('invalid_request');
  });
});
