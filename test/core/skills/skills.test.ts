// The Skills extension client against the skills fixture (SDK v2 low-level server) over real stdio, through the
// real Host: detection, paged listing with skipped entries, same-name disambiguation, nested skills, verification
// (verified, mismatch naming the file, dynamic), reads refused when unverified, and approvals bound to digests.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, fixture, makeSessionHost, stdioServer, type SessionHarness } from '../sessions/helpers.js';

const GIT_MD = 'skill://git-workflow/SKILL.md';

let dir: string;
let h: SessionHarness;
let versionFile: string;

beforeAll(async () => {
  dir = tempDir('sb-skills-');
  versionFile = join(dir, 'changing-version');
  h = makeSessionHost(dir);
  const script = fixture('skills-stdio.ts');
  await addApproved(h.host, stdioServer('skills', script, {}, { SKILLS_FIXTURE_VERSION_FILE: versionFile }));
  await addApproved(h.host, stdioServer('skillsdir', script, {}, { SKILLS_FIXTURE_DIRECTORY_READ: '1', SKILLS_FIXTURE_PAGE_SIZE: '100' }));
  await addApproved(h.host, stdioServer('plain', fixture('echo-stdio.ts')));
  await addApproved(
    h.host,
    stdioServer(
      'skillsextra',
      script,
      {},
      { SKILLS_FIXTURE_DIRECTORY_READ: '1', SKILLS_FIXTURE_UNLISTED: '1', SKILLS_FIXTURE_PAGE_SIZE: '100' },
    ),
  );
  await addApproved(h.host, stdioServer('skillsoff', script, { resources: false }, { SKILLS_FIXTURE_DIRECTORY_READ: '1' }));
}, 60_000);

afterAll(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('skills', () => {
  it('detects the extension and its directoryRead setting', async () => {
    const off = await h.host.skills.list('skills');
    expect(off.supported).toBe(true);
    expect(off.directoryRead).toBe(false);
    const on = await h.host.skills.list('skillsdir');
    expect(on.directoryRead).toBe(true);
    const plain = await h.host.skills.list('plain');
    expect(plain).toMatchObject({ supported: false, skills: [] });
  }, 30_000);

  it('lists every page, skips the malformed and oversized entries with reasons, keeps the rest', async () => {
    const r = await h.host.skills.list('skills');
    const uris = r.skills.map((s) => s.uri);
    expect(uris).toEqual([
      'skill://git-workflow/SKILL.md',
      'skill://outer/SKILL.md',
      'skill://outer/inner/SKILL.md',
      'skill://acme/billing/refunds/SKILL.md',
      'skill://acme/support/refunds/SKILL.md',
      'skill://tampered/SKILL.md',
      'skill://daily/SKILL.md',
      'skill://changing/SKILL.md',
    ]);
    expect(r.skipped.map((s) => s.uri)).toEqual(['skill://huge/SKILL.md', 'skill://broken/SKILL.md']);
    expect(r.skipped[0]?.reason).toMatch(/budget/);
    expect(r.skipped[1]?.reason).toMatch(/no resources/);
    expect(r.partial).toBeUndefined();
    // Same name, different paths: both kept, each labelled by its path.
    const refunds = r.skills.filter((s) => s.name === 'refunds').map((s) => s.label);
    expect(refunds).toEqual(['acme/billing/refunds', 'acme/support/refunds']);
    const git = r.skills[0]!;
    expect(git).toMatchObject({ label: 'git-workflow', license: 'Apache-2.0', allowedTools: 'Bash(git:*) Read', approval: 'none' });
    expect(git.fields).toEqual([{ key: 'metadata', value: '{"version":"1.2.0","owner":"platform"}' }]);
    expect(r.skills.find((s) => s.name === 'daily')).toMatchObject({ files: 'dynamic', approval: 'unbindable' });
  }, 30_000);

  it('shows a nested SKILL.md as a supporting file of the enclosing skill', async () => {
    const r = await h.host.skills.list('skills');
    const outer = r.skills.find((s) => s.uri === 'skill://outer/SKILL.md')!;
    expect(outer.files).not.toBe('dynamic');
    const files = outer.files === 'dynamic' ? [] : outer.files;
    expect(files.map((f) => [f.path, f.nestedSkill])).toEqual([
      ['SKILL.md', false],
      ['inner/SKILL.md', true],
    ]);
  }, 30_000);

  it('verifies every file of a skill against its manifest', async () => {
    const v = await h.host.skills.verify('skills', 'skill://git-workflow/SKILL.md');
    expect(v.state).toBe('verified');
    expect(v.files.map((f) => [f.path, f.state])).toEqual([
      ['SKILL.md', 'verified'],
      ['references/CHECKLIST.md', 'verified'],
    ]);
    const md = await h.host.skills.readFile('skills', 'skill://git-workflow/SKILL.md', 'skill://git-workflow/SKILL.md');
    expect(md.state).toBe('verified');
    expect(md.text).toContain('# Git workflow');
  }, 30_000);

  it('names the file whose digest does not match, and refuses its content and approval', async () => {
    const v = await h.host.skills.verify('skills', 'skill://tampered/SKILL.md');
    expect(v.state).toBe('mismatch');
    expect(v.mismatch?.uri).toBe('skill://tampered/scripts/run.sh');
    expect(v.mismatch?.reason).toMatch(/SHA-256/);
    expect(v.files.map((f) => f.state)).toEqual(['verified', 'mismatch']);
    const read = await rejection(h.host.skills.readFile('skills', 'skill://tampered/SKILL.md', 'skill://tampered/scripts/run.sh'));
    expect(read.code).toBe('skill_unverified');
    const approve = await rejection(h.host.skills.approve('skills', 'skill://tampered/SKILL.md'));
    expect(approve.code).toBe('skill_unverified');
    expect(approve.message).toContain('skill://tampered/scripts/run.sh');
  }, 30_000);

  it('reports a dynamic skill as unverifiable and will not bind an approval to it', async () => {
    const v = await h.host.skills.verify('skills', 'skill://daily/SKILL.md');
    expect(v.state).toBe('dynamic');
    expect(v.files[0]?.state).toBe('dynamic');
    const file = await h.host.skills.readFile('skills', 'skill://daily/SKILL.md', 'skill://daily/SKILL.md');
    expect(file.state).toBe('dynamic');
    expect((await rejection(h.host.skills.approve('skills', 'skill://daily/SKILL.md'))).code).toBe('skill_unverified');
  }, 30_000);

  it('refuses a file the manifest does not list', async () => {
    const err = await rejection(h.host.skills.readFile('skills', 'skill://git-workflow/SKILL.md', 'skill://git-workflow/extra.md'));
    expect(err.code).toBe('skill_unverified');
  }, 30_000);

  it('binds an approval to the manifest digests: a changed skill is marked and needs approval again', async () => {
    rmSync(versionFile, { force: true });
    const uri = 'skill://changing/SKILL.md';
    const approved = await h.host.skills.approve('skills', uri);
    expect(approved.approval).toBe('approved');
    expect((await h.host.skills.list('skills')).skills.find((s) => s.uri === uri)?.approval).toBe('approved');
    // Same uri on another server is another skill: the approval does not carry over.
    expect((await h.host.skills.list('skillsdir')).skills.find((s) => s.uri === uri)?.approval).toBe('none');

    writeFileSync(versionFile, 'v2');
    expect((await h.host.skills.list('skills')).skills.find((s) => s.uri === uri)?.approval).toBe('changed');
    expect((await h.host.skills.get('skills', uri)).approval).toBe('changed');
    expect((await h.host.skills.approve('skills', uri)).approval).toBe('approved');
  }, 30_000);

  it('reads a skill directory only from a server that declares directoryRead, marking what the manifest lists', async () => {
    const git = 'skill://git-workflow/SKILL.md';
    const off = await rejection(h.host.skills.listDirectory('skills', git, 'skill://git-workflow'));
    // Refused before any request: the server without directoryRead would have answered "method not found".
    expect(off.code).toBe('invalid_request');
    expect(off.message).toMatch(/does not declare directoryRead/);

    const root = await h.host.skills.listDirectory('skillsdir', git, 'skill://git-workflow');
    expect(root.children.map((c) => [c.name, c.directory, c.inManifest]).sort()).toEqual([
      ['SKILL.md', false, true],
      ['references', true, true],
    ]);
    const refs = await h.host.skills.listDirectory('skillsdir', git, 'skill://git-workflow/references');
    expect(refs.children).toEqual([
      {
        uri: 'skill://git-workflow/references/CHECKLIST.md',
        name: 'CHECKLIST.md',
        directory: false,
        inManifest: true,
        mimeType: 'text/markdown',
      },
    ]);
    // A dynamic skill has no manifest: its files are found this way, none of them content-bound.
    const daily = await h.host.skills.listDirectory('skillsdir', 'skill://daily/SKILL.md', 'skill://daily');
    expect(daily.children.map((c) => [c.name, c.inManifest])).toEqual([['SKILL.md', false]]);
    const outside = await rejection(h.host.skills.listDirectory('skillsdir', git, 'skill://outer'));
    expect(outside.code).toBe('invalid_request');
  }, 30_000);

  it('marks what the server has in a skill directory that the manifest does not list', async () => {
    const root = await h.host.skills.listDirectory('skillsextra', GIT_MD, 'skill://git-workflow');
    const top = new Map(root.children.map((c) => [c.name, c]));
    expect(top.get('SKILL.md')).toMatchObject({ directory: false, inManifest: true });
    expect(top.get('references')).toMatchObject({ directory: true, inManifest: true });
    expect(top.get('scripts')).toMatchObject({ directory: true, inManifest: false });
    const refs = await h.host.skills.listDirectory('skillsextra', GIT_MD, 'skill://git-workflow/references');
    expect(refs.children.map((c) => [c.name, c.inManifest]).sort()).toEqual([
      ['CHECKLIST.md', true],
      ['EXTRA.md', false],
    ]);
    // Being on the server's directory does not make a file the skill's: it is still refused.
    const err = await rejection(h.host.skills.readFile('skillsextra', GIT_MD, 'skill://git-workflow/references/EXTRA.md'));
    expect(err.code).toBe('skill_unverified');
    // The manifest alone decides verification: the unlisted files do not change it.
    expect((await h.host.skills.verify('skillsextra', GIT_MD)).state).toBe('verified');
  }, 30_000);

  it('reads no skill file of a server whose resources are turned off, and says so', async () => {
    const r = await h.host.skills.list('skillsoff');
    expect(r.resourcesOff).toBe(true);
    expect(r.skills.map((s) => s.uri)).toContain(GIT_MD);
    expect((await h.host.skills.list('skills')).resourcesOff).toBeUndefined();
    for (const p of [
      h.host.skills.verify('skillsoff', GIT_MD),
      h.host.skills.readFile('skillsoff', GIT_MD, GIT_MD),
      h.host.skills.approve('skillsoff', GIT_MD),
      h.host.skills.listDirectory('skillsoff', GIT_MD, 'skill://git-workflow'),
    ]) {
      const err = await rejection(p);
      expect(err.code).toBe('invalid_request');
      expect(err.message).toMatch(/Resources are turned off for skillsoff/);
    }
  }, 30_000);

  it('gets a skill by uri and rejects one the server does not serve', async () => {
    const s = await h.host.skills.get('skillsdir', 'skill://acme/support/refunds/SKILL.md');
    expect(s).toMatchObject({ serverId: 'skillsdir', name: 'refunds' });
    const err = await rejection(h.host.skills.get('skillsdir', 'skill://nope/SKILL.md'));
    expect(err.code).toBe('server_error');
  }, 30_000);

  it("forgets a removed server's approvals: a server re-added under the same id starts unapproved", async () => {
    const uri = 'skill://changing/SKILL.md';
    expect((await h.host.skills.list('skills')).skills.find((s) => s.uri === uri)?.approval).toBe('approved');
    await h.host.remove('skills');
    await addApproved(h.host, stdioServer('skills', fixture('skills-stdio.ts'), {}, { SKILLS_FIXTURE_VERSION_FILE: versionFile }));
    expect((await h.host.skills.list('skills')).skills.find((s) => s.uri === uri)?.approval).toBe('none');
  }, 30_000);
});
