// Skills through the gateway: real SDK v2 clients over Streamable HTTP (both eras) against a real Host with two
// skills fixture servers behind it. Only approved skills that verify are listed, got and read, under wrapped uris
// that keep (server, uri) apart; a skill that fails verification or was never approved is not served; directory
// reads are forwarded only to a server that declares directoryRead.
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayWorld } from './harness.js';

const EXT = 'io.modelcontextprotocol/skills';
const Entry = z.object({
  uri: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })),
});
const ListResult = z.looseObject({ skills: z.array(Entry), nextCursor: z.string().optional() });
const GetResult = z.looseObject({ skill: Entry });
const DirResult = z.looseObject({
  resources: z.array(z.looseObject({ uri: z.string(), name: z.string(), mimeType: z.string().optional() })),
});

const wrap = (server: string, uri: string): string => `switchboard://${server}/${uri}`;
const GIT = 'skill://git-workflow/SKILL.md';
const CHECKLIST = 'skill://git-workflow/references/CHECKLIST.md';

let w: GatewayWorld;
let token = '';
let swapFile = '';
let versionFile = '';

beforeAll(async () => {
  w = new GatewayWorld();
  swapFile = join(w.dir, 'swap');
  versionFile = join(w.dir, 'version');
  await w.addServer('alpha', 'skills-stdio.ts', {}, { SKILLS_FIXTURE_SWAP_FILE: swapFile, SKILLS_FIXTURE_VERSION_FILE: versionFile });
  await w.addServer('beta', 'skills-stdio.ts', {}, { SKILLS_FIXTURE_DIRECTORY_READ: '1', SKILLS_FIXTURE_PAGE_SIZE: '100' });
  // Resources turned off by the person: its skills (files are resources) are not served through the gateway.
  await w.addServer('gamma', 'skills-stdio.ts', { resources: false });
  await w.enable();
  ({ token } = await w.client('skilled', { mode: 'all', writes: 'allow' }));
}, 120_000);
afterAll(async () => w?.close());

async function list(c: Client): Promise<z.infer<typeof Entry>[]> {
  const out: z.infer<typeof Entry>[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const page = await c.request({ method: 'skills/list', params: cursor === undefined ? {} : { cursor } }, ListResult);
    out.push(...page.skills);
    cursor = page.nextCursor;
    if (cursor === undefined) break;
  }
  return out;
}

async function readText(c: Client, uri: string): Promise<string> {
  const r = await c.readResource({ uri });
  const item = r.contents[0] as { uri: string; text?: string };
  expect(item.uri).toBe(uri);
  return item.text ?? '';
}

const sha = (s: string): string => `sha256:${createHash('sha256').update(s, 'utf8').digest('hex')}`;

describe('skills through the gateway', () => {
  it('declares no skills extension while nothing is approved', async () => {
    const c = await w.http(token, 'modern');
    await c.listTools();
    expect(c.getServerCapabilities()?.extensions?.[EXT]).toBeUndefined();
  });

  it('approves in the core: the tampered skill cannot be approved', async () => {
    for (const uri of [GIT, 'skill://acme/billing/refunds/SKILL.md', 'skill://acme/support/refunds/SKILL.md', 'skill://changing/SKILL.md'])
      await w.host.skills.approve('alpha', uri);
    await w.host.skills.approve('beta', GIT);
    // Resources off: its skill files are not read in the core either, so nothing can be approved there.
    await expect(w.host.skills.approve('gamma', GIT)).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(w.host.skills.approve('alpha', 'skill://tampered/SKILL.md')).rejects.toMatchObject({ code: 'skill_unverified' });
  }, 60_000);

  describe.each(['modern', 'legacy'] as const)('SDK v2 client, %s', (era) => {
    it('declares the extension and lists exactly the approved skills, (server, uri) kept apart', async () => {
      const c = await w.http(token, era);
      expect(c.getServerCapabilities()?.extensions?.[EXT]).toEqual({ directoryRead: true });
      const skills = await list(c);
      expect(skills.map((s) => s.uri).sort()).toEqual(
        [
          wrap('alpha', GIT),
          wrap('alpha', 'skill://acme/billing/refunds/SKILL.md'),
          wrap('alpha', 'skill://acme/support/refunds/SKILL.md'),
          wrap('alpha', 'skill://changing/SKILL.md'),
          wrap('beta', GIT),
        ].sort(),
      );
      // Same name on two servers, and twice on one: every one served, none preferred.
      expect(skills.filter((s) => s.frontmatter['name'] === 'git-workflow')).toHaveLength(2);
      expect(skills.filter((s) => s.frontmatter['name'] === 'refunds')).toHaveLength(2);
      const git = skills.find((s) => s.uri === wrap('alpha', GIT))!;
      expect(git.frontmatter).toEqual({
        name: 'git-workflow',
        description: "Follow this team's Git conventions for branching and commits",
        license: 'Apache-2.0',
        'allowed-tools': 'Bash(git:*) Read',
        metadata: { version: '1.2.0', owner: 'platform' },
      });
      expect(git.resources.map((r) => r.uri).sort()).toEqual([wrap('alpha', GIT), wrap('alpha', CHECKLIST)]);
    });

    it('gets a skill and reads its files as resources, bytes that match the manifest', async () => {
      const c = await w.http(token, era);
      for (const server of ['alpha', 'beta']) {
        const { skill } = await c.request({ method: 'skills/get', params: { uri: wrap(server, GIT) } }, GetResult);
        expect(skill.uri).toBe(wrap(server, GIT));
        for (const file of skill.resources) {
          const text = await readText(c, file.uri);
          expect(sha(text)).toBe(file.digest);
          expect(Buffer.byteLength(text, 'utf8')).toBe(file.size);
        }
      }
      expect(await readText(c, wrap('alpha', GIT))).toMatch(/^---\nname: git-workflow\n/);
    });

    it('serves no unapproved or unverifiable skill, by list, get or read', async () => {
      const c = await w.http(token, era);
      const uris = (await list(c)).map((s) => s.uri);
      for (const u of ['skill://tampered/SKILL.md', 'skill://outer/SKILL.md', 'skill://daily/SKILL.md'])
        expect(uris).not.toContain(wrap('alpha', u));
      for (const u of [
        wrap('alpha', 'skill://tampered/SKILL.md'),
        wrap('alpha', 'skill://outer/SKILL.md'),
        wrap('beta', 'skill://changing/SKILL.md'),
        wrap('gamma', GIT),
      ])
        await expect(c.request({ method: 'skills/get', params: { uri: u } }, GetResult)).rejects.toThrow(/No skill is served/);
      // The uri alone is not an identity: an unwrapped uri names no server.
      await expect(c.request({ method: 'skills/get', params: { uri: GIT } }, GetResult)).rejects.toThrow(/No skill is served/);
      await expect(c.readResource({ uri: wrap('alpha', 'skill://tampered/scripts/run.sh') })).rejects.toThrow(/not approved/);
      await expect(c.readResource({ uri: wrap('beta', 'skill://outer/SKILL.md') })).rejects.toThrow(/not approved/);
      await expect(c.readResource({ uri: wrap('gamma', GIT) })).rejects.toThrow(/Resources are turned off/);
      await expect(c.readResource({ uri: wrap('alpha', 'skill://daily/SKILL.md') })).rejects.toThrow(/not approved/);
      // Within an approved skill but not in its manifest: refused, never forwarded unverified.
      await expect(c.readResource({ uri: wrap('alpha', 'skill://git-workflow/extra.md') })).rejects.toThrow(/not in its skill's manifest/);
    });
  });

  it('lists as resources only the files of served skills, under their prefixed uris', async () => {
    const c = await w.http(token, 'modern');
    const uris = (await c.listResources()).resources.map((r) => r.uri);
    for (const served of [GIT, CHECKLIST, 'skill://acme/billing/refunds/SKILL.md', 'skill://changing/SKILL.md'])
      expect(uris).toContain(wrap('alpha', served));
    expect(uris).toContain(wrap('beta', CHECKLIST));
    // Unapproved (outer, its nested inner), unverifiable (tampered), dynamic (daily), skipped (huge, broken): not listed.
    for (const hidden of [
      'skill://tampered/SKILL.md',
      'skill://tampered/scripts/run.sh',
      'skill://outer/SKILL.md',
      'skill://outer/inner/SKILL.md',
      'skill://daily/SKILL.md',
      'skill://huge/SKILL.md',
      'skill://broken/SKILL.md',
    ])
      expect(uris).not.toContain(wrap('alpha', hidden));
    expect(uris).not.toContain(wrap('beta', 'skill://acme/billing/refunds/SKILL.md'));
    // Resources off: nothing of gamma at all; the raw uri never appears.
    expect(uris.filter((u) => u.startsWith('switchboard://gamma/'))).toEqual([]);
    expect(uris).not.toContain(GIT);
    // What a skipped entry's server lists is still a skill's file: never forwarded unverified.
    await expect(c.readResource({ uri: wrap('alpha', 'skill://huge/SKILL.md') })).rejects.toThrow(/skipped/);
  });

  it('reads a directory of a served skill: forwarded where declared, from the manifest where not', async () => {
    const c = await w.http(token, 'modern');
    for (const server of ['alpha', 'beta']) {
      const r = await c.request({ method: 'resources/directory/read', params: { uri: wrap(server, 'skill://git-workflow') } }, DirResult);
      expect(r.resources.map((x) => [x.uri, x.mimeType]).sort()).toEqual(
        [
          [wrap(server, GIT), 'text/markdown'],
          [wrap(server, 'skill://git-workflow/references'), 'inode/directory'],
        ].sort(),
      );
    }
    const sub = await c.request(
      { method: 'resources/directory/read', params: { uri: wrap('beta', 'skill://git-workflow/references') } },
      DirResult,
    );
    expect(sub.resources.map((x) => x.uri)).toEqual([wrap('beta', CHECKLIST)]);
    await expect(
      c.request({ method: 'resources/directory/read', params: { uri: wrap('beta', 'skill://outer') } }, DirResult),
    ).rejects.toThrow(/not a directory of a skill served here/);
    // The core refuses a directory read of a server that did not declare directoryRead, without asking it.
    await expect(w.host.skills.readDirectory('alpha', 'skill://git-workflow')).rejects.toMatchObject({ code: 'invalid_request' });
    const core = await w.host.skills.readDirectory('beta', 'skill://git-workflow');
    expect(core.children.map((x) => x.name).sort()).toEqual(['SKILL.md', 'references']);
  });

  it('stops serving an approved skill whose file fails verification, and serves the other server\u2019s same skill', async () => {
    const c = await w.http(token, 'modern');
    writeFileSync(swapFile, CHECKLIST);
    try {
      await expect(c.readResource({ uri: wrap('alpha', CHECKLIST) })).rejects.toThrow(/did not verify/);
      const uris = (await list(c)).map((s) => s.uri);
      expect(uris).not.toContain(wrap('alpha', GIT));
      expect(uris).toContain(wrap('beta', GIT));
      await expect(c.request({ method: 'skills/get', params: { uri: wrap('alpha', GIT) } }, GetResult)).rejects.toThrow(
        /No skill is served/,
      );
      await expect(c.readResource({ uri: wrap('alpha', GIT) })).rejects.toThrow(/not approved/);
      expect(await readText(c, wrap('beta', CHECKLIST))).toMatch(/Checklist/);
    } finally {
      rmSync(swapFile, { force: true });
    }
    // Verified whole again in Switchboard, it is served again.
    expect((await w.host.skills.verify('alpha', GIT)).state).toBe('verified');
    expect((await list(c)).map((s) => s.uri)).toContain(wrap('alpha', GIT));
  }, 60_000);

  it('stops serving a skill that changed since it was approved', async () => {
    const c = await w.http(token, 'modern');
    expect((await list(c)).map((s) => s.uri)).toContain(wrap('alpha', 'skill://changing/SKILL.md'));
    writeFileSync(versionFile, 'v2');
    const uris = (await list(c)).map((s) => s.uri);
    expect(uris).not.toContain(wrap('alpha', 'skill://changing/SKILL.md'));
    expect(uris).toContain(wrap('alpha', GIT));
    const listed = (await c.listResources()).resources.map((r) => r.uri);
    expect(listed).not.toContain(wrap('alpha', 'skill://changing/SKILL.md'));
    expect(listed).toContain(wrap('alpha', GIT));
  }, 60_000);
});
