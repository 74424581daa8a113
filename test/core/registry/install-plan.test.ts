// server.json → server definition, on the fixture registry's entries: the exact argv of npm, pypi and oci packages,
// positional and named arguments with {variables} and repetition, env vars (required, secret, default, choices),
// remotes with URL variables and headers, and hostile identifiers that must stay single argv entries.
import { describe, expect, it } from 'vitest';
import { planInstall, type PlanContext } from '../../../electron/core/registry/install-plan.js';
import { parseServerJsonValue, type ServerJson } from '../../../electron/core/registry/server-json.js';
import { fixtureEntries, EVERYTHING_ENTRY } from '../../fixtures/registry/entries.js';

const runtimes: PlanContext['runtimes'] = {
  npx: { command: 'npx', path: '/usr/bin/npx' },
  uvx: { command: 'uvx', path: '/usr/bin/uvx' },
  docker: { command: 'docker', path: '/usr/bin/docker' },
};
const ctx = (extra: Partial<PlanContext> = {}): PlanContext => ({ runtimes, existingIds: new Set(), mode: 'preview', ...extra });

function entry(name: string): ServerJson {
  const found = fixtureEntries().find((e) => (e as { server?: { name?: string } }).server?.name === name);
  if (found === undefined) throw new Error(`no fixture entry ${name}`);
  return parseServerJsonValue(found).server;
}

const stdio = (t: unknown) => t as { type: 'stdio'; command: string; args: string[]; env: Record<string, unknown> };

describe('npm packages', () => {
  it('runs npx -y <identifier>@<version> with package arguments, env inputs and secrets as references', () => {
    const plan = planInstall(entry(EVERYTHING_ENTRY), undefined, {}, ctx());
    expect(plan.choice).toBe(0);
    expect(plan.config).toMatchObject({ id: 'everything-fixture', name: 'Everything (fixture)', startup: 'eager' });
    const t = stdio(plan.config.transport);
    expect(t.command).toBe('npx');
    expect(t.args).toEqual(['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio']);
    expect(t.env).toEqual({ EVERYTHING_API_KEY: { secret: true }, EVERYTHING_LOG_LEVEL: 'info' });
    expect(plan.inputs.map((i) => [i.key, i.kind, i.required, i.secret, i.default ?? null, i.choices ?? null])).toEqual([
      ['env:EVERYTHING_API_KEY', 'env', true, true, null, null],
      ['env:EVERYTHING_LOG_LEVEL', 'env', false, false, 'info', ['debug', 'info', 'warn', 'error']],
    ]);
    expect(plan.missing).toEqual(['env:EVERYTHING_API_KEY']);
  });

  it('install mode carries the secret value; a value outside the choices is refused', () => {
    const plan = planInstall(
      entry(EVERYTHING_ENTRY),
      0,
      { 'env:EVERYTHING_API_KEY': 's3cret', 'env:EVERYTHING_LOG_LEVEL': 'debug' },
      ctx({ mode: 'install' }),
    );
    expect(plan.missing).toEqual([]);
    expect(stdio(plan.config.transport).env).toEqual({
      EVERYTHING_API_KEY: { secret: true, value: 's3cret' },
      EVERYTHING_LOG_LEVEL: 'debug',
    });
    const bad = planInstall(entry(EVERYTHING_ENTRY), 0, { 'env:EVERYTHING_API_KEY': 'x', 'env:EVERYTHING_LOG_LEVEL': 'loud' }, ctx());
    expect(bad.missing).toEqual(['env:EVERYTHING_LOG_LEVEL']);
    expect(bad.warnings.join(' ')).toMatch(/EVERYTHING_LOG_LEVEL: one of debug, info, warn, error is expected/);
  });

  it('repeated positional arguments become one argv entry per line', () => {
    const plan = planInstall(entry('io.github.modelcontextprotocol/filesystem'), 0, { 'package:0': '/home/a\n/home/b c' }, ctx());
    expect(stdio(plan.config.transport).args).toEqual(['-y', '@modelcontextprotocol/server-filesystem@2026.8.31', '/home/a', '/home/b c']);
    expect(plan.inputs[0]).toMatchObject({
      key: 'package:0',
      label: 'allowed_directory',
      repeated: true,
      format: 'filepath',
      value: '/home/a\n/home/b c',
    });
    expect(planInstall(entry('io.github.modelcontextprotocol/filesystem'), 0, {}, ctx()).missing).toEqual(['package:0']);
  });

  it('uses a test-only local package instead of npx when one is mapped', () => {
    const plan = planInstall(
      entry(EVERYTHING_ENTRY),
      0,
      {},
      ctx({ local: { '@modelcontextprotocol/server-everything': { command: '/usr/bin/node', args: ['/x/index.js'] } } }),
    );
    expect(stdio(plan.config.transport)).toMatchObject({ command: '/usr/bin/node', args: ['/x/index.js', 'stdio'] });
  });
});

describe('pypi and oci packages', () => {
  it('runs uvx <identifier>==<version>', () => {
    const plan = planInstall(entry('io.github.example/weather-mcp'), 0, { 'env:WEATHER_API_KEY': 'k' }, ctx({ mode: 'install' }));
    expect(stdio(plan.config.transport)).toMatchObject({
      command: 'uvx',
      args: ['weather-mcp-server==0.5.0'],
      env: { WEATHER_API_KEY: { secret: true, value: 'k' }, WEATHER_UNITS: 'celsius' },
    });
  });

  it('runs docker run -i --rm with -e NAME for env, runtime arguments before the image, {variables} filled', () => {
    const values = {
      'runtime:1:var:db_type': 'postgres',
      'package:1': '5432',
      'package:2': 'orders',
      'env:DB_USERNAME': 'app',
      'env:DB_PASSWORD': 'pw',
    };
    const plan = planInstall(entry('io.github.example/database-manager'), 0, values, ctx({ mode: 'install' }));
    expect(plan.missing).toEqual([]);
    const t = stdio(plan.config.transport);
    expect(t.command).toBe('docker');
    expect(t.args).toEqual([
      'run',
      '-i',
      '--rm',
      '-e',
      'DB_USERNAME',
      '-e',
      'DB_PASSWORD',
      '-e',
      'SSL_MODE',
      '--network',
      'host',
      '-e',
      'DB_TYPE=postgres',
      'example/database-manager-mcp:3.1.0',
      '--host',
      'localhost',
      '--port',
      '5432',
      'orders',
    ]);
    // The secret reaches the container through docker's environment, never the command line.
    expect(t.args.join(' ')).not.toContain('pw');
    expect(t.env['DB_PASSWORD']).toEqual({ secret: true, value: 'pw' });
    const bad = planInstall(entry('io.github.example/database-manager'), 0, { ...values, 'package:1': 'five' }, ctx());
    expect(bad.warnings.join(' ')).toMatch(/--port: a number is expected/);
  });

  it('asks for each {variable} of a repeated named argument', () => {
    const plan = planInstall(entry('io.github.modelcontextprotocol/filesystem'), 1, { 'runtime:0:var:source_path': '/srv/data' }, ctx());
    expect(stdio(plan.config.transport).args).toEqual([
      'run',
      '-i',
      '--rm',
      '-e',
      'LOG_LEVEL',
      '--mount',
      'type=bind,src=/srv/data,dst=/project',
      'mcp/filesystem:1.0.2',
      '/project',
    ]);
    expect(plan.inputs.map((i) => i.key)).toEqual(['env:LOG_LEVEL', 'runtime:0:var:source_path', 'runtime:0:var:target_path']);
  });
});

describe('remotes', () => {
  it('fills URL variables and plain headers; a secret Authorization becomes the bearer token, never a header', () => {
    const server = entry('com.example.cloud/tenant-mcp');
    const preview = planInstall(server, 0, { 'url:var:tenant': 'acme' }, ctx());
    expect(preview.config.transport).toEqual({
      type: 'http',
      url: 'https://acme.mcp.cloud.example.com/mcp',
      headers: { 'X-Client': 'switchboard' },
    });
    expect(preview.missing).toEqual(['header:Authorization:var:token']);
    expect(preview.bearer).toBeUndefined();
    const install = planInstall(server, 0, { 'url:var:tenant': 'acme', 'header:Authorization:var:token': 'tok' }, ctx({ mode: 'install' }));
    expect(install.missing).toEqual([]);
    expect(install.bearer).toBe('tok');
    expect(JSON.stringify(install.config)).not.toContain('tok');
  });

  it('a secret header other than Authorization is a secret header of the definition (credential store), never a plain value', () => {
    const base = entry('com.example/github-remote');
    const withHeaders = (headers: unknown[]): ServerJson =>
      parseServerJsonValue({ server: { ...base, remotes: [{ ...base.remotes![0]!, headers }] } }).server;
    const installed = planInstall(
      withHeaders([
        { name: 'X-Api-Key', isSecret: true },
        { name: 'X-Client', value: 'sb' },
      ]),
      0,
      { 'header:X-Api-Key': 'k-secret' },
      ctx({ mode: 'install' }),
    );
    expect(installed.missing).toEqual([]);
    expect(installed.config.transport).toMatchObject({ headers: { 'X-Client': 'sb', 'X-Api-Key': { secret: true, value: 'k-secret' } } });
    expect(installed.warnings.join(' ')).not.toMatch(/cannot be stored/);
    const preview = planInstall(withHeaders([{ name: 'X-Api-Key', isSecret: true }]), 0, { 'header:X-Api-Key': 'k-secret' }, ctx());
    expect(JSON.stringify(preview.config)).not.toContain('k-secret');
    const required = planInstall(withHeaders([{ name: 'X-Api-Key', isSecret: true, isRequired: true }]), 0, {}, ctx());
    expect(required.missing).toEqual(['header:X-Api-Key']);
    expect(required.inputs).toEqual([expect.objectContaining({ key: 'header:X-Api-Key', secret: true, required: true })]);
  });

  it('needs the URL variable', () => {
    const plan = planInstall(entry('com.example.cloud/tenant-mcp'), 0, {}, ctx());
    expect(plan.missing).toContain('url:var:tenant');
    expect(plan.warnings.join(' ')).toMatch(/URL still has variables/);
  });

  it('offers the SSE and Streamable HTTP remotes of a hybrid entry', () => {
    const server = entry('io.github.example/hybrid-mcp');
    expect(planInstall(server, 1, {}, ctx()).config.transport).toEqual({
      type: 'sse',
      url: 'https://mcp.hybrid.example.com/sse',
      headers: { 'X-Region': 'us-east-1' },
    });
    expect(planInstall(server, 2, {}, ctx()).config.transport).toEqual({
      type: 'http',
      url: 'https://mcp.hybrid.example.com/mcp',
      headers: {},
    });
    expect(stdio(planInstall(server, 0, { 'package:0': 'proxy' }, ctx()).config.transport).args).toEqual([
      '-y',
      '@example/hybrid-mcp-server@1.5.0',
      '--mode',
      'proxy',
    ]);
  });
});

describe('hostile entries', () => {
  it('keeps shell metacharacters and ../ as single argv entries, with a caution', () => {
    const plan = planInstall(entry('com.example/hostile-metachar'), 0, { 'package:2': '$(id)\n; ls' }, ctx());
    const t = stdio(plan.config.transport);
    expect(t.command).toBe('npx');
    expect(t.args).toEqual([
      '-y',
      'evil; rm -rf ~ && echo $(whoami) | tee `id` > /tmp/x@1.0.0',
      '`touch /tmp/pwned`; $(reboot)',
      '--path',
      '../../../etc/passwd',
      '$(id)',
      '; ls',
    ]);
    expect(plan.warnings.join(' ')).toMatch(/characters a package name does not normally hold/);
    const dotdot = stdio(planInstall(entry('com.example/hostile-dotdot'), 0, {}, ctx()).config.transport);
    expect(dotdot).toMatchObject({ command: 'uvx', args: ['../../../../bin/sh==1.0.0'] });
  });

  it('refuses identifiers a runtime would read as options, version ranges and unsupported package types', () => {
    expect(() => planInstall(entry('com.example/hostile-dash'), 0, {}, ctx())).toThrow(/begins with "-"/);
    expect(() => planInstall(entry('com.example/hostile-range'), 0, {}, ctx())).toThrow(/is a range/);
    expect(() => planInstall(entry('io.github.joelverhagen/knapcode-samplemcpserver'), 0, {}, ctx())).toThrow(/cannot run nuget/);
    expect(() => planInstall(entry('com.example/local-http'), 0, {}, ctx())).toThrow(/serves HTTP/);
  });

  it('picks a free id', () => {
    const plan = planInstall(entry(EVERYTHING_ENTRY), 0, {}, ctx({ existingIds: new Set(['everything-fixture', 'everything-fixture-2']) }));
    expect(plan.config.id).toBe('everything-fixture-3');
  });
});
