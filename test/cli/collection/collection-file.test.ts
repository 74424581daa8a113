// docs/collection.schema.json is the collection format's published JSON Schema: generated from the zod schema the
// runner checks files with, so the two cannot drift. Regenerate with SWITCHBOARD_WRITE_SCHEMA=1 (then
// prettier --write it).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectionJsonSchema } from '../../../electron/cli/collection/collection-file.js';

const file = fileURLToPath(new URL('../../../docs/collection.schema.json', import.meta.url));

describe('collection JSON Schema', () => {
  it('is the one generated from the runner’s schema', () => {
    const text = `${JSON.stringify(collectionJsonSchema(), null, 2)}\n`;
    if (process.env['SWITCHBOARD_WRITE_SCHEMA'] === '1') writeFileSync(file, text);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(text));
  });
});
