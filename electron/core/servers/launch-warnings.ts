// Plain words for the parts of a stdio launch that change what it does beyond "run this package": npx told to run a
// shell string or a different package than the one named, a container with the host's privileges, root file system or
// network, and environment variables that load code into the process before it starts. Nothing runs without the
// person's approval anyway; these are said next to the launch so an approval is not given on a name alone. Pure: the
// launch in, typed warnings out. Env values are never read (they may be secrets): the variable's name is enough.
import type { LaunchWarning, LaunchWarningCode } from '../../../shared/contract.js';

/** What the warnings look at: the program, its arguments and the names of the environment variables the entry sets. */
export interface LaunchShape {
  command: string;
  args: readonly string[];
  envNames: readonly string[];
}

/** Characters of an argument quoted in a warning (the approval panel shows it whole). */
const QUOTED_CHARS = 160;

/** The warnings for a launch, in the order the launch reads (command line first, then environment). */
export function launchWarnings(launch: LaunchShape): LaunchWarning[] {
  const program = programName(launch.command);
  const warnings: LaunchWarning[] = [];
  if (program === 'npx') warnings.push(...npxWarnings(launch.args));
  else if (program === 'npm' && (launch.args[0] === 'exec' || launch.args[0] === 'x')) warnings.push(...npxWarnings(launch.args.slice(1)));
  else if (program === 'docker' || program === 'podman') warnings.push(...containerWarnings(program, launch.args));
  warnings.push(...envWarnings(launch.envNames));
  return dedupe(warnings);
}

/** "npx" for `/usr/bin/npx`, `C:\\nodejs\\npx.cmd`, `NPX.EXE`. */
function programName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.toLowerCase().replace(/\.(cmd|exe|bat|ps1)$/, '');
}

function quote(text: string): string {
  const cut = text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text;
  return `“${cut}”`;
}

const warn = (code: LaunchWarningCode, text: string): LaunchWarning => ({ code, text });

// npx's own options come before the package to run; everything from the first other word on is that program's
// (so `npx -y pkg -c x` passes `-c x` to pkg and says nothing about npx).
const NPX_VALUE_OPTIONS = new Set(['-p', '--package', '-c', '--call', '--registry', '--cache', '--userconfig', '-w', '--workspace']);

function npxWarnings(args: readonly string[]): LaunchWarning[] {
  const out: LaunchWarning[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || !arg.startsWith('-')) break;
    const eq = arg.indexOf('=');
    const name = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    let value: string | undefined;
    if (eq > 0 && arg.startsWith('--')) value = arg.slice(eq + 1);
    else if (NPX_VALUE_OPTIONS.has(name)) value = args[++i];
    if (value === undefined) continue;
    if (name === '-c' || name === '--call')
      out.push(
        warn(
          'npx_shell_command',
          `npx runs ${quote(value)} as a shell command line: it can run any program on your computer, not only an npm package.`,
        ),
      );
    else if (name === '-p' || name === '--package')
      out.push(
        warn(
          'npx_other_package',
          `npx installs the package ${quote(value)} and runs a command from it, which may not be the package the rest of the line names.`,
        ),
      );
  }
  return out;
}

// `docker run` options that take a value as the next word, so their value is not read as the image.
// prettier-ignore
const DOCKER_VALUE_OPTIONS = new Set([
  '-e', '--env', '--env-file', '-v', '--volume', '--mount', '-p', '--publish', '--name', '-w', '--workdir', '--network',
  '--net', '-u', '--user', '--entrypoint', '-l', '--label', '--cap-add', '--cap-drop', '--pid', '--ipc', '-h',
  '--hostname', '--add-host', '--device', '--platform', '--pull', '--restart', '-m', '--memory', '--cpus',
  '--security-opt', '--tmpfs', '--ulimit', '--log-driver', '--log-opt', '--dns', '--cgroupns', '--uts', '--userns',
  '--runtime', '--gpus', '--shm-size', '--stop-signal', '--volumes-from', '--label-file', '--cidfile', '--expose',
]);

function containerWarnings(program: string, args: readonly string[]): LaunchWarning[] {
  let start: number;
  if (args[0] === 'run') start = 1;
  else if (args[0] === 'container' && args[1] === 'run') start = 2;
  else return [];
  const out: LaunchWarning[] = [];
  for (let i = start; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || !arg.startsWith('-')) break;
    const eq = arg.indexOf('=');
    const name = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    let value: string | undefined;
    if (eq > 0 && arg.startsWith('--')) value = arg.slice(eq + 1);
    else if (DOCKER_VALUE_OPTIONS.has(name)) value = args[++i];
    if (name === '--privileged' && (value === undefined || value.toLowerCase() !== 'false'))
      out.push(
        warn(
          'container_privileged',
          `${program} runs the container with --privileged: it gets every device and kernel capability of your computer, so it is not isolated from it.`,
        ),
      );
    if (value === undefined) continue;
    if ((name === '-v' || name === '--volume') && mountsHostRoot(value.split(':')[0]))
      out.push(
        warn('container_host_root', `${program} mounts your computer's whole file system (/) into the container (${quote(value)}).`),
      );
    if (name === '--mount' && mountsHostRoot(mountSource(value)))
      out.push(
        warn('container_host_root', `${program} mounts your computer's whole file system (/) into the container (${quote(value)}).`),
      );
    if ((name === '--network' || name === '--net') && value === 'host')
      out.push(
        warn(
          'container_host_network',
          `${program} shares your computer's network with the container (--network host): it can reach every service listening on this machine, including ones only open to localhost.`,
        ),
      );
    if (name === '--pid' && value === 'host')
      out.push(
        warn(
          'container_host_pid',
          `${program} shares your computer's processes with the container (--pid host): it can see and signal them.`,
        ),
      );
  }
  return out;
}

function mountSource(spec: string): string | undefined {
  for (const part of spec.split(',')) {
    const [key, ...rest] = part.split('=');
    if (key === 'source' || key === 'src') return rest.join('=');
  }
  return undefined;
}

/** `/`, `//`, `/.`, `C:\\`, `C:/`: the root of a file system. */
function mountsHostRoot(source: string | undefined): boolean {
  if (source === undefined) return false;
  return /^\/[/.]*$/.test(source) || /^[A-Za-z]:[\\/]?$/.test(source);
}

/** Variables that make a program load code the entry chose before the program's own starts. */
function envWarning(name: string): LaunchWarning | undefined {
  const upper = name.toUpperCase();
  if (upper === 'NODE_OPTIONS')
    return warn(
      'env_node_options',
      `NODE_OPTIONS is set: it can make Node load any script (--require, --import) before the program starts.`,
    );
  if (upper === 'LD_PRELOAD' || upper === 'LD_AUDIT' || upper === 'DYLD_INSERT_LIBRARIES')
    return warn('env_library_preload', `${name} is set: it loads the libraries it names into the program before it starts.`);
  if (upper === 'LD_LIBRARY_PATH' || upper.startsWith('DYLD_'))
    return warn(
      'env_library_path',
      `${name} is set: it changes where the program's libraries are loaded from, so other code can run in their place.`,
    );
  if (upper === 'PYTHONSTARTUP')
    return warn('env_python_startup', `PYTHONSTARTUP is set: Python runs the file it names when it starts interactively.`);
  if (upper === 'BASH_ENV')
    return warn('env_shell_startup', `BASH_ENV is set: every bash script the program runs first runs the file it names.`);
  return undefined;
}

function envWarnings(names: readonly string[]): LaunchWarning[] {
  return [...names]
    .sort()
    .map(envWarning)
    .filter((w): w is LaunchWarning => w !== undefined);
}

function dedupe(warnings: LaunchWarning[]): LaunchWarning[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = `${w.code}\u0000${w.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
