// Verification stops at a skill's failing SKILL.md: the skill is reported failed with the reason, and none of its
// other files is read (a hostile server gets no more reads out of a refused skill). A supporting file that cannot be
// read fails the skill too, named with why. The skills fixture (SDK v2
// low-level server) over real stdio logs every `resources/read` it answers, so the reads are counted, not assumed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, fixture, makeSessionHost, stdioServer, type SessionHarness } from '../sessions/helpers.js';

let dir: string;
let h: SessionHarness;
let readLog: string;

/** The uris the fixture was asked to read since the last reset. */
const reads = (): string[] => readFileSync(readLog, 'utf8').split('\n').filter(Boolean);

beforeAll(async () => {
  dir = tempDir('sb-skills-stop-');
  readLog = join(dir, 'reads.log');
  writeFileSync(readLog, '');
  h = makeSessionHost(dir);
  const env = { SKILLS_FIXTURE_BAD_HEAD: '1', SKILLS_FIXTURE_READ_LOG: readLog, SKILLS_FIXTURE_PAGE_SIZE: '100' };
  await addApproved(h.host, stdioServer('skills', fixture('skills-stdio.ts'), {}, env));
  await h.host.skills.list('skills');
}, 60_000);

afterAll(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

beforeEach(() => writeFileSync(readLog, ''));

describe('skill verification with a failing SKILL.md', () => {
  it('stops at a SKILL.md whose digest does not match: failed with the reason, the other files never read', async () => {
    const v = await h.host.skills.verify('skills', 'skill://bad-head/SKILL.md');
    expect(v.state).toBe('mismatch');
    expect(v.mismatch).toMatchObject({ uri: 'skill://bad-head/SKILL.md' });
    expect(v.mismatch?.reason).toMatch(/SHA-256/);
    expect(reads()).toEqual(['skill://bad-head/SKILL.md']);
    // Every listed file is still named: the SKILL.md failed, the rest unread with why.
    expect(v.files.map((f) => [f.path, f.state])).toEqual([
      ['SKILL.md', 'mismatch'],
      ['scripts/a.sh', 'unread'],
      ['references/b.md', 'unread'],
    ]);
    expect(v.files[1]?.reason).toMatch(/SKILL\.md did not verify/);
    // Never approvable, and the approval attempt reads no supporting file either.
    writeFileSync(readLog, '');
    await expect(h.host.skills.approve('skills', 'skill://bad-head/SKILL.md')).rejects.toMatchObject({ code: 'skill_unverified' });
    expect(reads()).toEqual(['skill://bad-head/SKILL.md']);
  }, 30_000);

  it('stops at a SKILL.md whose size does not match', async () => {
    const v = await h.host.skills.verify('skills', 'skill://bad-size/SKILL.md');
    expect(v.state).toBe('mismatch');
    expect(v.mismatch?.reason).toMatch(/the manifest says 7/);
    expect(reads()).toEqual(['skill://bad-size/SKILL.md']);
  }, 30_000);

  it('still reads every file of a skill whose SKILL.md verifies, naming a later mismatch', async () => {
    const v = await h.host.skills.verify('skills', 'skill://tampered/SKILL.md');
    expect(v.state).toBe('mismatch');
    expect(v.mismatch?.uri).toBe('skill://tampered/scripts/run.sh');
    expect(reads().sort()).toEqual(['skill://tampered/SKILL.md', 'skill://tampered/scripts/run.sh']);
  }, 30_000);

  it('fails a skill one of whose supporting files cannot be read, naming the file and why', async () => {
    const v = await h.host.skills.verify('skills', 'skill://unreadable-file/SKILL.md');
    expect(v.state).toBe('mismatch');
    expect(v.mismatch?.uri).toBe('skill://unreadable-file/scripts/gone.sh');
    expect(v.mismatch?.reason).toMatch(/could not be read.*Simulated read failure/);
    expect(v.files.find((f) => f.path === 'scripts/gone.sh')).toMatchObject({ state: 'unread' });
    // The other files are still checked (the SKILL.md verified).
    expect(reads().sort()).toEqual([
      'skill://unreadable-file/SKILL.md',
      'skill://unreadable-file/references/e.md',
      'skill://unreadable-file/scripts/gone.sh',
    ]);
    await expect(h.host.skills.approve('skills', 'skill://unreadable-file/SKILL.md')).rejects.toMatchObject({ code: 'skill_unverified' });
  }, 30_000);
});
