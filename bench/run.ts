// `npm run bench [-- NAME ...]`: runs the named benchmarks (all when none is named), one process each.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'support.ts'].includes(f))
  .map((f) => f.replace(/\.ts$/, ''));
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : all;
let failed = 0;
for (const name of chosen) {
  console.log(`\n=== bench/${name}.ts`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${name}.ts`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
