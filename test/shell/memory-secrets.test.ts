// The shell's in-memory secrets: the core's memory-secret requests are answered by the shell, everything else goes
// to the shell's own answers, and the bounds refuse without naming the value.
import { describe, expect, it } from 'vitest';
import { MAX_MEMORY_SECRET_CHARS, withMemorySecrets } from '../../electron/shell/memory-secrets.js';

describe('withMemorySecrets', () => {
  it('keeps, lists and deletes secrets, and passes other requests on', async () => {
    const passed: string[] = [];
    const serve = withMemorySecrets((request) => {
      passed.push(request.op);
      return Promise.resolve('served');
    });
    expect(await serve({ op: 'memorySecrets.get', account: 'a' })).toBeNull();
    await serve({ op: 'memorySecrets.set', account: 'a', value: 'one' });
    await serve({ op: 'memorySecrets.set', account: 'b', value: 'two' });
    expect(await serve({ op: 'memorySecrets.get', account: 'a' })).toBe('one');
    expect(await serve({ op: 'memorySecrets.accounts' })).toEqual(['a', 'b']);
    await serve({ op: 'memorySecrets.delete', account: 'a' });
    expect(await serve({ op: 'memorySecrets.accounts' })).toEqual(['b']);
    expect(await serve({ op: 'openExternal', url: 'https://example.com' })).toBe('served');
    expect(passed).toEqual(['openExternal']);
  });

  it('refuses an over-long secret without echoing it', async () => {
    const serve = withMemorySecrets(() => Promise.resolve(undefined));
    const value = `s3cret-${'x'.repeat(MAX_MEMORY_SECRET_CHARS)}`;
    const refused = await serve({ op: 'memorySecrets.set', account: 'a', value }).catch((err: Error) => err);
    expect((refused as Error).message).toContain('not kept');
    expect((refused as Error).message).not.toContain('s3cret');
  });
});
