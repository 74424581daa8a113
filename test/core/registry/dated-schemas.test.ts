// Every dated server.json schema publishers still use (2025-07-09 … 2025-12-11) is accepted: one hand-written fixture
// per version, each parsed, prepared through the contract as a pasted server.json, and turned into a launch.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PreparedInstall } from '../../../shared/domains/registry.js';
import { parseServerJsonValue } from '../../../electron/core/registry/server-json.js';
import { call, cleanup, tempDir } from '../../shared/support/harness.js';
import { makeRegistryHost, type RegistryHarness } from './helpers.js';

const schemas = fileURLToPath(new URL('../../fixtures/registry/schemas', import.meta.url));
const read = (version: string): string => readFileSync(join(schemas, `${version}.json`), 'utf8');
const VERSIONS = ['2025-07-09', '2025-09-16', '2025-09-29', '2025-10-11', '2025-10-17', '2025-12-11'];

let dir: string;
let h: RegistryHarness;
beforeEach(() => {
  dir = tempDir('sb-registry-schemas-');
  h = makeRegistryHost(dir, { runtimes: ['npx', 'uvx', 'docker'] });
});
afterEach(() => cleanup(dir));

describe('dated server.json schemas', () => {
  it('has one fixture per dated version', () => {
    expect(readdirSync(schemas).sort()).toEqual(VERSIONS.map((v) => `${v}.json`));
  });

  it.each(VERSIONS)('%s parses and prepares', async (version) => {
    const record = parseServerJsonValue(JSON.parse(read(version)));
    expect(record.server.name).toBe(`io.github.example/schema-${version}`);
    const prepared = await call<PreparedInstall>(h.dispatch, 'registry.prepare', { serverJson: read(version) });
    expect(prepared.origin.name).toBe(`io.github.example/schema-${version}`);
    expect(prepared.entry.options.length).toBeGreaterThan(0);
  });

  it('2025-07-09: snake_case fields, a package without transport, transport_type on a remote', async () => {
    const prepared = await call<PreparedInstall>(h.dispatch, 'registry.prepare', {
      serverJson: read('2025-07-09'),
      values: { 'env:SCHEMA_TOKEN': 'x' },
    });
    expect(prepared.entry.websiteUrl).toBe('https://example.com/schema-2025-07-09');
    expect(prepared.config.transport).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@example/schema-2025-07-09@0.1.0', '--mode', 'fast'],
      env: { SCHEMA_TOKEN: { secret: true } },
    });
    expect(prepared.inputs.find((i) => i.key === 'env:SCHEMA_TOKEN')).toMatchObject({ required: true, secret: true });
    expect(prepared.entry.options[1]).toMatchObject({ kind: 'remote', transport: 'http', url: 'https://mcp.example.com/2025-07-09' });
  });

  it('2025-09-16: the status inside server.json is read', async () => {
    const prepared = await call<PreparedInstall>(h.dispatch, 'registry.prepare', { serverJson: read('2025-09-16') });
    expect(prepared.entry.status).toBe('deprecated');
    expect(prepared.config.transport).toMatchObject({ command: 'uvx', args: ['schema-2025-09-16==0.2.0'], env: { SCHEMA_LEVEL: 'info' } });
  });

  it('2025-10-11 and 2025-10-17: an OCI image with its tag in the identifier; an MCPB package is listed but refused', async () => {
    const oci = await call<PreparedInstall>(h.dispatch, 'registry.prepare', { serverJson: read('2025-10-11') });
    expect(oci.config.transport).toMatchObject({
      command: 'docker',
      args: ['run', '-i', '--rm', 'ghcr.io/example/schema-2025-10-11:v0.4.0'],
    });
    const mcpb = await call<PreparedInstall>(h.dispatch, 'registry.prepare', { serverJson: read('2025-10-17') });
    expect(mcpb.entry.options[0]).toMatchObject({ registryType: 'mcpb', installable: false });
    expect(mcpb.choice).toBe(1);
  });

  it('2025-12-11: a URL template variable is asked for', async () => {
    const prepared = await call<PreparedInstall>(h.dispatch, 'registry.prepare', {
      serverJson: read('2025-12-11'),
      values: { 'url:var:tenant_id': 'acme' },
    });
    expect(prepared.config.transport).toMatchObject({ type: 'http', url: 'https://acme.mcp.example.com/mcp' });
  });
});
