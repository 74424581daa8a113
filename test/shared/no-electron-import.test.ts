// The core and the shared contract are plain Node: nothing under electron/core/ or shared/
// may import Electron, and the renderer never reaches into electron/ at all.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function sourceFiles(dir: string, exts: string[]): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path, exts));
    else if (exts.includes(extname(name)) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every module specifier a file names: static/side-effect/type imports, re-exports, require(), import(). */
function moduleSpecifiers(source: string): string[] {
  // Drop comments so a mention in prose is not an import (string contents are kept).
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[\w*{}\s,$]*?\bfrom\s*(['"`])([^'"`]+)\1/g, // import x from '...', export {x} from '...'
    /\bimport\s*(['"`])([^'"`]+)\1/g, // import '...'
    /\bimport\s*\(\s*(['"`])([^'"`]+)\1\s*\)/g, // import('...')
    /\brequire\s*\(\s*(['"`])([^'"`]+)\1\s*\)/g, // require('...')
    /\brequire\.resolve\s*\(\s*(['"`])([^'"`]+)\1\s*\)/g, // require.resolve('...')
    /\bimport\s*\w+\s*=\s*require\s*\(\s*(['"`])([^'"`]+)\1\s*\)/g, // import x = require('...')
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) found.push(m[2]!);
  return found;
}

const isElectron = (spec: string) => spec === 'electron' || spec.startsWith('electron/') || spec === 'node:electron';

describe('the import detector', () => {
  it('catches every import form (so the scan below can fail)', () => {
    const samples = [
      "import { app } from 'electron';",
      'import electron from "electron";',
      "import type { IpcMain } from 'electron';",
      "import * as e from 'electron/main';",
      "import 'electron';",
      "export { shell } from 'electron';",
      "const e = require('electron');",
      'const e = await import("electron");',
      "const e = await import(\n  'electron'\n);",
      "import {\n  app,\n  BrowserWindow,\n} from 'electron';",
      'const e = require(`electron`);',
    ];
    for (const s of samples) expect(moduleSpecifiers(s).some(isElectron), s).toBe(true);
  });

  it('ignores comments, look-alike names and other packages', () => {
    const samples = [
      "// import { app } from 'electron';",
      "/* require('electron') */",
      "import { x } from 'electron-store';",
      "import { y } from './electron-like.js';",
      "const note = 'runs without electron';",
    ];
    for (const s of samples) expect(moduleSpecifiers(s).some(isElectron), s).toBe(false);
  });
});

describe('no Electron in core or shared', () => {
  const files = [
    ...sourceFiles(join(root, 'electron', 'core'), ['.ts', '.mts', '.cts', '.js', '.mjs']),
    ...sourceFiles(join(root, 'shared'), ['.ts', '.mts', '.cts', '.js', '.mjs']),
  ];

  it('finds the files it scans', () => {
    expect(files.some((f) => f.endsWith(join('electron', 'core', 'host.ts')))).toBe(true);
    expect(files.some((f) => f.endsWith(join('shared', 'contract.ts')))).toBe(true);
  });

  it('no file imports electron', () => {
    const offenders = files.filter((f) => moduleSpecifiers(readFileSync(f, 'utf8')).some(isElectron)).map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });

  it('no file reaches into a shell (main, preload, ipc, bootstrap, headless, app, paths) by relative path', () => {
    const shell = [
      join(root, 'electron', 'main'),
      join(root, 'electron', 'preload'),
      join(root, 'electron', 'ipc') + sep,
      join(root, 'electron', 'bootstrap'),
      join(root, 'electron', 'headless'),
      join(root, 'electron', 'app') + sep,
      join(root, 'electron', 'paths'),
    ];
    const offenders: string[] = [];
    for (const f of files) {
      for (const spec of moduleSpecifiers(readFileSync(f, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(f), spec);
        if (shell.some((p) => target.startsWith(p))) offenders.push(`${relative(root, f)} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('renderer never imports from electron/', () => {
  const files = sourceFiles(join(root, 'renderer'), ['.ts', '.tsx', '.mts', '.js', '.jsx', '.mjs']);

  it('finds the files it scans', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it('no renderer file imports electron or a module under electron/', () => {
    const electronDir = join(root, 'electron') + sep;
    const offenders: string[] = [];
    for (const f of files) {
      for (const spec of moduleSpecifiers(readFileSync(f, 'utf8'))) {
        const target = spec.startsWith('.') ? resolve(dirname(f), spec) : '';
        if (isElectron(spec) || target.startsWith(electronDir) || target === join(root, 'electron'))
          offenders.push(`${relative(root, f)} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
