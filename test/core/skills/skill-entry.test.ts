// Admission of untrusted Skill entries: every malformed or over-budget shape is refused with a reason, and the
// approval fingerprint follows the (uri, digest) set whatever the listing order.
import { describe, expect, it } from 'vitest';
import { LimitsSchema } from '../../../shared/config.js';
import { admitSkill, disambiguate, manifestFingerprint, type AdmittedSkill } from '../../../electron/core/skills/skill-entry.js';

const limits = LimitsSchema.parse({});
const D = `sha256:${'a'.repeat(64)}`;
const good = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  uri: 'skill://a/b/SKILL.md',
  frontmatter: { name: 'b', description: 'd' },
  resources: [{ uri: 'skill://a/b/SKILL.md', digest: D, size: 1 }],
  ...over,
});
const reason = (raw: unknown): string => {
  const r = admitSkill(raw, limits);
  return 'reason' in r ? r.reason : 'admitted';
};

describe('admitSkill', () => {
  it('admits a well-formed entry', () => {
    expect(reason(good())).toBe('admitted');
  });

  it.each([
    ['not an object', 'x', /not an object/],
    ['no uri', good({ uri: undefined }), /without a uri/],
    ['uri with bidi', good({ uri: 'skill://a/\u202eb/SKILL.md' }), /control or bidi/],
    ['not a SKILL.md', good({ uri: 'skill://a/b/README.md' }), /does not end in/],
    ['name not the last segment', good({ frontmatter: { name: 'c', description: 'd' } }), /last segment/],
    ['no description', good({ frontmatter: { name: 'b' } }), /lacks a name or description/],
    ['no resources', good({ resources: undefined }), /no resources/],
    ['resources of the wrong type', good({ resources: 'static' }), /no resources/],
    ['bad digest', good({ resources: [{ uri: 'skill://a/b/SKILL.md', digest: 'md5:00', size: 1 }] }), /sha256/],
    ['negative size', good({ resources: [{ uri: 'skill://a/b/SKILL.md', digest: D, size: -1 }] }), /invalid size/],
    [
      'file outside the skill',
      good({
        resources: [
          { uri: 'skill://a/b/SKILL.md', digest: D, size: 1 },
          { uri: 'skill://a/c/x', digest: D, size: 1 },
        ],
      }),
      /outside/,
    ],
    ['own SKILL.md missing', good({ resources: [{ uri: 'skill://a/b/x.md', digest: D, size: 1 }] }), /own SKILL.md/],
    [
      'file listed twice',
      good({
        resources: [
          { uri: 'skill://a/b/SKILL.md', digest: D, size: 1 },
          { uri: 'skill://a/b/SKILL.md', digest: D, size: 1 },
        ],
      }),
      /twice/,
    ],
    [
      'too many files',
      good({ resources: Array.from({ length: 513 }, (_, i) => ({ uri: `skill://a/b/${i}`, digest: D, size: 1 })) }),
      /513 files/,
    ],
    [
      'total over 16 MiB',
      good({
        resources: [
          { uri: 'skill://a/b/SKILL.md', digest: D, size: 9e6 },
          { uri: 'skill://a/b/x', digest: D, size: 9e6 },
        ],
      }),
      /total/,
    ],
  ])('refuses %s', (_what, raw, why) => {
    expect(reason(raw)).toMatch(why);
  });

  it('refuses a frontmatter nested too deeply', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 20; i++) deep = { deep };
    expect(reason(good({ frontmatter: { name: 'b', description: 'd', deep } }))).toMatch(/deeper/);
  });

  it('binds the fingerprint to the (uri, digest) set, not its order', () => {
    const a = { uri: 'skill://a/b/SKILL.md', digest: D };
    const b = { uri: 'skill://a/b/x', digest: `sha256:${'b'.repeat(64)}` };
    expect(manifestFingerprint([a, b])).toBe(manifestFingerprint([b, a]));
    expect(manifestFingerprint([a, b])).not.toBe(manifestFingerprint([a, { ...b, digest: D }]));
  });

  it('labels same-name skills by their paths and leaves unique names alone', () => {
    const mk = (path: string): AdmittedSkill => {
      const name = path.split('/').at(-1)!;
      const r = admitSkill(
        good({ uri: `skill://${path}/SKILL.md`, frontmatter: { name, description: 'd' }, resources: 'dynamic' }),
        limits,
      );
      if ('reason' in r) throw new Error(r.reason);
      return r;
    };
    const labels = disambiguate([mk('x/refunds'), mk('y/refunds'), mk('solo')]);
    expect([...labels.values()]).toEqual(['x/refunds', 'y/refunds', 'solo']);
  });
});
