// Type-level guard for the contract's one source: each method's validator must parse to its argument type. The
// `@ts-expect-error` lines below fail `npm run typecheck` when the check in contract-schemas.ts stops catching a
// validator that disagrees with its method, and the plain lines fail it when it starts refusing ones that agree.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invokeArgSchemas, type ArgSchemas } from '../../shared/contract-schemas.js';

type Check<K extends keyof ArgSchemas> = ArgSchemas[K];

describe('argument validators are checked against their method types', () => {
  it('accepts the real validators and refuses mismatched ones (checked by tsc)', () => {
    const all: ArgSchemas = invokeArgSchemas;
    const real: Check<'servers.get'> = invokeArgSchemas['servers.get'];
    const agreeing: Check<'servers.get'> = z.object({ id: z.string() }).strict();
    // @ts-expect-error `id` is a string in servers.get's argument type, not a number
    const wrongType: Check<'servers.get'> = z.object({ id: z.number() }).strict();
    // @ts-expect-error servers.get's argument needs `id`
    const missingField: Check<'servers.get'> = z.object({}).strict();
    // @ts-expect-error `fingerprint` is required by servers.approve, not optional
    const loosened: Check<'servers.approve'> = z.object({ id: z.string(), fingerprint: z.string().optional() }).strict();
    expect([all['app.info'], real, agreeing, wrongType, missingField, loosened].every((s) => s instanceof z.ZodType)).toBe(true);
  });
});
