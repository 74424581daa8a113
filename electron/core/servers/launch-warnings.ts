// Plain words for the parts of a stdio launch that change what it does beyond "run this package": a package runner
// told to run a shell string, a different package than the one named or packages from another registry; a shell
// given a command string; an interpreter given inline code; a container with the host's privileges, devices, root file system, network or processes;
// environment variables that load code into the process before it starts. Nothing runs without the person's approval
// anyway; these are said next to the launch so an approval is not given on a name alone. Pure: the launch in, typed
// warnings out. Env values are never read (they may be secrets): the variable's name is enough.
import type { LaunchWarning, LaunchWarningCode } from '../../../shared/contract.js';
import { escapeControl } from '../text.js';

/** What the warnings look at: the program, its arguments and the names of the environment variables the entry sets. */
export interface LaunchShape {
  command: string;
  args: readonly string[];
  envNames: readonly string[];
}

/** Characters of an argument quoted in a warning (the approval panel shows it whole). */
const QUOTED_CHARS = 160;
/** Wrappers (`env`, `cmd /c`) looked through at most this deep. */
const MAX_WRAPPERS = 4;

/** The warnings for a launch, in the order the launch reads (command line first, then environment). */
export function launchWarnings(launch: LaunchShape): LaunchWarning[] {
  return dedupe(warningsOf(launch.command, launch.args, launch.envNames, 0));
}

function warningsOf(command: string, args: readonly string[], envNames: readonly string[], depth: number): LaunchWarning[] {
  const program = programName(command);
  const out: LaunchWarning[] = [];
  const inner = depth < MAX_WRAPPERS ? wrapped(program, args) : undefined;
  if (inner) out.push(...inner.warnings, ...warningsOf(inner.command, inner.args, [...envNames, ...inner.envNames], depth + 1));
  else {
    out.push(...runnerWarnings(program, args), ...shellWarnings(program, args), ...inlineCodeWarnings(program, args));
    if (program === 'docker' || program === 'podman') out.push(...containerWarnings(program, args));
    out.push(...envWarnings(envNames));
  }
  return out;
}

/** "npx" for `/usr/bin/npx`, `C:\\nodejs\\npx.cmd`, `NPX.EXE`. */
function programName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.toLowerCase().replace(/\.(cmd|exe|bat|ps1)$/, '');
}

/** The argument as shown: control, bidi and invisible characters written as escapes, so what it hides is seen. */
function quote(raw: string): string {
  const text = escapeControl(raw);
  const cut = text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text;
  return `“${cut}”`;
}

const warn = (code: LaunchWarningCode, text: string): LaunchWarning => ({ code, text });

/** An option word split into its name and, for `--name=value`, its value. */
function splitOption(arg: string): { name: string; inline?: string } {
  const eq = arg.indexOf('=');
  return eq > 0 && arg.startsWith('--') ? { name: arg.slice(0, eq), inline: arg.slice(eq + 1) } : { name: arg };
}

// ---------------------------------------------------------------------------------------------------------------------
// Package runners. Each reads its own options before the package or command to run; everything from the first
// other word on belongs to that program (so `npx -y pkg -c x` passes `-c x` to pkg and says nothing about npx).

/** What one of a runner's options does to the launch. */
type RunnerEffect =
  /** The option's value is a shell command line. */
  | 'shell'
  /** A flag: the command the runner is given is run by a shell. */
  | 'shell-mode'
  /** The option's value is a package to install and run from. */
  | 'package'
  /** The option's value is a package installed next to the one run. */
  | 'with'
  /** The option's value is the registry or index packages come from. */
  | 'registry';

/** How one package runner reads its options. */
interface Runner {
  /** Program names (lower case, without .cmd/.exe). */
  programs: readonly string[];
  /** Words that must come first, in order, for the launch to be this runner (`npm exec`, `uv tool run`); options may sit between them. */
  sub?: readonly string[];
  /** Shown as the runner's name in warnings. */
  label: string;
  /** The options that change what runs. */
  effects: Readonly<Record<string, RunnerEffect>>;
  /** Options that take the next word as their value (so it is not read as the package); effects other than shell-mode included. */
  values: readonly string[];
}

const NPX_EFFECTS = { '-c': 'shell', '--call': 'shell', '-p': 'package', '--package': 'package', '--registry': 'registry' } as const;
const NPX_VALUES = ['-p', '--package', '-c', '--call', '--registry', '--cache', '--userconfig', '-w', '--workspace'];
const PNPM_EFFECTS = { '-c': 'shell-mode', '--shell-mode': 'shell-mode', '--package': 'package', '--registry': 'registry' } as const;
const PNPM_VALUES = ['--package', '--registry', '-C', '--dir', '--filter', '-F', '--reporter', '--loglevel'];
// prettier-ignore
const UV_EFFECTS = {
  '--from': 'package', '--with': 'with', '--with-editable': 'with', '--with-requirements': 'with', '--index': 'registry',
  '--index-url': 'registry', '-i': 'registry', '--default-index': 'registry', '--extra-index-url': 'registry',
  '--find-links': 'registry', '-f': 'registry',
} as const;
// prettier-ignore
const UV_VALUES = [
  ...Object.keys(UV_EFFECTS), '--python', '-p', '--directory', '--project', '--cache-dir', '--config-file', '--env-file',
  '--refresh-package', '--reinstall-package', '--upgrade-package', '-P', '--color', '--index-strategy', '--keyring-provider',
  '--resolution', '--prerelease', '--exclude-newer', '--link-mode', '--compile-bytecode', '--python-platform', '--build-constraints',
  '--constraints', '--overrides',
];

/** Every package runner the warnings know, one row each: add a runner here and nowhere else. */
// prettier-ignore
const RUNNERS: readonly Runner[] = [
  { programs: ['npx'], label: 'npx', effects: NPX_EFFECTS, values: NPX_VALUES },
  { programs: ['npm'], sub: ['exec'], label: 'npm exec', effects: NPX_EFFECTS, values: NPX_VALUES },
  { programs: ['npm'], sub: ['x'], label: 'npm exec', effects: NPX_EFFECTS, values: NPX_VALUES },
  { programs: ['pnpm'], sub: ['dlx'], label: 'pnpm dlx', effects: PNPM_EFFECTS, values: PNPM_VALUES },
  { programs: ['pnpx'], label: 'pnpx', effects: PNPM_EFFECTS, values: PNPM_VALUES },
  { programs: ['yarn'], sub: ['dlx'], label: 'yarn dlx', effects: { '-p': 'package', '--package': 'package' }, values: ['-p', '--package'] },
  { programs: ['bunx'], label: 'bunx', effects: { '-p': 'package', '--package': 'package' }, values: ['-p', '--package'] },
  { programs: ['bun'], sub: ['x'], label: 'bunx', effects: { '-p': 'package', '--package': 'package' }, values: ['-p', '--package'] },
  { programs: ['uvx'], label: 'uvx', effects: UV_EFFECTS, values: UV_VALUES },
  { programs: ['uv'], sub: ['tool', 'run'], label: 'uvx', effects: UV_EFFECTS, values: UV_VALUES },
  { programs: ['uv'], sub: ['run'], label: 'uv run', effects: UV_EFFECTS, values: UV_VALUES },
  { programs: ['pipx'], sub: ['run'], label: 'pipx run', effects: { '--spec': 'package', '--index-url': 'registry', '-i': 'registry', '--pip-args': 'registry' }, values: ['--spec', '--index-url', '-i', '--pip-args', '--python'] },
];

function runnerWarnings(program: string, args: readonly string[]): LaunchWarning[] {
  const out: LaunchWarning[] = [];
  for (const runner of RUNNERS) if (runner.programs.includes(program)) out.push(...readRunner(runner, args));
  return out;
}

function readRunner(runner: Runner, args: readonly string[]): LaunchWarning[] {
  const found: { effect: RunnerEffect; value: string }[] = [];
  const needed = [...(runner.sub ?? [])];
  let command: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      command = args[i + 1];
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (needed[0] === arg) {
        needed.shift();
        continue;
      }
      command = arg;
      break;
    }
    const { name, inline } = splitOption(arg);
    const effect = runner.effects[name];
    if (effect === 'shell-mode') {
      found.push({ effect, value: '' });
      continue;
    }
    const value = inline ?? (runner.values.includes(name) ? args[++i] : undefined);
    if (effect !== undefined && value !== undefined) found.push({ effect, value });
  }
  if (needed.length > 0) return [];
  return found.flatMap(({ effect, value }) => runnerWarning(runner, effect, effect === 'shell-mode' ? command : value));
}

function runnerWarning(runner: Runner, effect: RunnerEffect, value: string | undefined): LaunchWarning[] {
  if (value === undefined) return [];
  const npx = runner.programs.includes('npx') || runner.programs.includes('npm');
  const who = runner.label;
  switch (effect) {
    case 'shell':
    case 'shell-mode':
      return [
        warn(
          npx ? 'npx_shell_command' : 'runner_shell_command',
          `${who} runs ${quote(value)} as a shell command line: it can run any program on your computer, not only ${npx ? 'an npm package' : 'the package named'}.`,
        ),
      ];
    case 'package':
      return [
        warn(
          npx ? 'npx_other_package' : 'runner_other_package',
          `${who} installs the package ${quote(value)} and runs a command from it, which may not be the package the rest of the line names.`,
        ),
      ];
    case 'with':
      return [warn('runner_other_package', `${who} also installs ${quote(value)} and lets the program load it.`)];
    case 'registry':
      return [
        warn(
          'runner_other_registry',
          `${who} downloads packages from ${quote(value)} instead of the usual registry, so a package of the same name may be someone else's.`,
        ),
      ];
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Shells given a command string: whatever the string says runs, not one program.

const POSIX_SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish']);
/** Shell options that take the next word as their value. */
const SHELL_VALUES = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

function shellWarnings(program: string, args: readonly string[]): LaunchWarning[] {
  if (POSIX_SHELLS.has(program)) {
    const text = posixShellString(args);
    return text === undefined ? [] : [shellCommand(program, text)];
  }
  if (program === 'cmd') {
    // Only a line cmd would do more with than start one program: plain words are looked through (see `wrapped`).
    const rest = cmdRest(args);
    const line = rest?.join(' ');
    return line !== undefined && CMD_SPECIAL.test(line) ? [shellCommand('cmd', line)] : [];
  }
  if (program === 'powershell' || program === 'pwsh') return powershellWarnings(program, args);
  return [];
}

const shellCommand = (program: string, text: string): LaunchWarning =>
  warn('shell_command', `${program} runs ${quote(text)} as a command line: it can run any program on your computer, not only one.`);

/** The command string of `sh -c "…"` (also `-ec`, `-lc`, `-c -e "…"`): the first operand after a `c` flag. */
function posixShellString(args: readonly string[]): string | undefined {
  let command = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || arg === '-') return command ? args[i + 1] : undefined;
    if (/^[-+]/.test(arg) && arg.length > 1) {
      if (SHELL_VALUES.has(arg)) i++;
      else if (/^-[a-zA-Z]+$/.test(arg) && arg.includes('c')) command = true;
      else if (arg === '--command') command = true;
      else if (arg.startsWith('--command=')) return arg.slice('--command='.length);
      continue;
    }
    return command ? arg : undefined;
  }
  return undefined;
}

/** What cmd runs for `/c`, `/k` or `/r`: the rest of the line (other switches such as `/d /s /q` may come first). */
function cmdRest(args: readonly string[]): readonly string[] | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!.toLowerCase();
    if (arg === '/c' || arg === '/k' || arg === '/r') return args.slice(i + 1);
    if (!arg.startsWith('/')) return undefined;
  }
  return undefined;
}

/** Characters that make cmd do more than start one program: chaining, pipes, redirection, variables, escapes. */
const CMD_SPECIAL = /[&|<>^%!()"\r\n]/;

/** PowerShell parameters that take a value (matched by any unambiguous prefix, as PowerShell does). */
// prettier-ignore
const POWERSHELL_VALUES = ['-executionpolicy', '-windowstyle', '-version', '-configurationname', '-workingdirectory', '-outputformat',
  '-inputformat', '-psconsolefile', '-settingsfile', '-custompipename'];

function powershellWarnings(program: string, args: readonly string[]): LaunchWarning[] {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = arg
      .toLowerCase()
      .replace(/^(--?|\/)/, '-')
      .split(':')[0]!;
    if (!arg.startsWith('-') && !arg.startsWith('/')) {
      // Windows PowerShell runs a bare operand as a command; pwsh runs it as a script file.
      return program === 'powershell' ? [shellCommand(program, args.slice(i).join(' '))] : [];
    }
    if (name.length < 2) continue;
    if ('-command'.startsWith(name)) return [shellCommand(program, args.slice(i + 1).join(' '))];
    if ('-encodedcommand'.startsWith(name) || name === '-ec') {
      const decoded = decodeEncodedCommand(args[i + 1] ?? '');
      return [
        warn(
          'shell_command',
          `${program} runs an encoded command${decoded === undefined ? ' that cannot be read here' : `, ${quote(decoded)},`}: it can run any program on your computer, not only one.`,
        ),
      ];
    }
    if ('-file'.startsWith(name)) return [];
    if (POWERSHELL_VALUES.some((p) => p.startsWith(name)) || name === '-ep' || name === '-ex' || name === '-wd') i++;
  }
  return [];
}

/** PowerShell's -EncodedCommand is base64 of UTF-16LE text. */
function decodeEncodedCommand(value: string): string | undefined {
  if (!/^[A-Za-z0-9+/=\s]+$/.test(value)) return undefined;
  const text = Buffer.from(value.slice(0, 4 * QUOTED_CHARS), 'base64').toString('utf16le');
  return text.trim() === '' ? undefined : text;
}

// ---------------------------------------------------------------------------------------------------------------------
// Interpreters given code in their arguments (`node -e`, `python -c`, `perl -e`, `deno eval`): what runs is the text
// on the command line, not a program file or a package someone published, so the approval shows that text.

/** How one interpreter reads its options before the script: which take code, which take another value. */
interface Interpreter {
  /** Program names (lower case, without .cmd/.exe); a pattern for versioned names such as python3.12. */
  programs: RegExp;
  /** A word that must come first (`deno eval`): the first operand after it is the code. */
  sub?: string;
  /** Long or single-letter options whose value is code (`--eval`, `-e`). */
  code: readonly string[];
  /** Options that take the next word as a value that is not code (so it is not read as the script). */
  values: readonly string[];
  /** Single-letter flags may be clustered (`perl -ne`, `python -Ic`): a code letter in a cluster takes the rest or the next word. */
  clusters: boolean;
  /** An option after which the rest belongs to something else (`python -m mod`): reading stops there. */
  stops: readonly string[];
}

// prettier-ignore
const INTERPRETERS: readonly Interpreter[] = [
  { programs: /^(node|nodejs)$/, code: ['-e', '--eval', '-p', '--print', '-pe'], values: ['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--input-type', '--title', '--inspect-port', '--stack-size', '--env-file'], clusters: false, stops: [] },
  { programs: /^bun$/, code: ['-e', '--eval', '-p', '--print'], values: ['-r', '--preload', '--require', '--import', '--cwd', '--config', '-c', '--env-file', '--tsconfig-override'], clusters: false, stops: [] },
  { programs: /^deno$/, sub: 'eval', code: [], values: ['--ext', '--config', '-c', '--import-map', '--location', '--seed', '--v8-flags', '--cert', '--lock', '--env-file'], clusters: false, stops: [] },
  { programs: /^(python|pythonw|py|pypy)(\d+(\.\d+)*)?$/, code: ['-c'], values: ['-W', '-X', '-Q'], clusters: true, stops: ['-m'] },
  { programs: /^perl(\d+(\.\d+)*)?$/, code: ['-e', '-E'], values: ['-I', '-M', '-m'], clusters: true, stops: [] },
  { programs: /^ruby(\d+(\.\d+)*)?$/, code: ['-e'], values: ['-I', '-r', '-C', '-E', '--encoding'], clusters: true, stops: [] },
];

function inlineCodeWarnings(program: string, args: readonly string[]): LaunchWarning[] {
  const interpreter = INTERPRETERS.find((i) => i.programs.test(program));
  if (!interpreter) return [];
  const code = interpreter.sub === undefined ? inlineCode(interpreter, args) : subcommandCode(interpreter, args);
  return code === undefined ? [] : [inlineCodeWarning(program, code)];
}

const inlineCodeWarning = (program: string, code: string): LaunchWarning =>
  warn(
    'inline_code',
    `${program} runs the inline code ${quote(code)} given in its arguments, not a program file or a published package: it can do anything on your computer.`,
  );

/** The code an interpreter is given by an option before its script (the script's own arguments are its own). */
function inlineCode(interpreter: Interpreter, args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || arg === '-' || !arg.startsWith('-')) return undefined;
    const { name, inline } = splitOption(arg);
    if (interpreter.stops.includes(name)) return undefined;
    if (interpreter.code.includes(name)) return inline ?? args[i + 1] ?? '';
    if (interpreter.values.includes(name)) {
      if (inline === undefined) i++;
      continue;
    }
    if (interpreter.clusters && /^-[A-Za-z]/.test(arg) && !arg.startsWith('--')) {
      // `-Ic "code"`, `-ne 'code'`, `-c"code"`: letters up to the first that takes a value; the rest, or the next word, is it.
      for (let k = 1; k < arg.length; k++) {
        const letter = `-${arg[k]}`;
        const rest = arg.slice(k + 1);
        if (interpreter.stops.includes(letter)) return undefined;
        if (interpreter.code.includes(letter)) return rest !== '' ? rest : (args[i + 1] ?? '');
        if (interpreter.values.includes(letter)) {
          if (rest === '') i++;
          break;
        }
      }
    }
  }
  return undefined;
}

/** `deno eval [options] "code"`: the first operand after the subcommand. */
function subcommandCode(interpreter: Interpreter, args: readonly string[]): string | undefined {
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) if (interpreter.values.includes(args[i]!)) i++;
  if (args[i] !== interpreter.sub) return undefined;
  for (i++; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1];
    if (!arg.startsWith('-')) return arg;
    if (interpreter.values.includes(arg)) i++;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------------
// Wrappers that start another program: `env NAME=… program …` (its variables count as the entry's) and `cmd /c` with
// a plain command line (the usual way to start npx on Windows). What they start is read as the launch itself.

interface Wrapped {
  command: string;
  args: readonly string[];
  envNames: readonly string[];
  warnings: LaunchWarning[];
}

function wrapped(program: string, args: readonly string[]): Wrapped | undefined {
  if (program === 'env') {
    const envNames: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '-u' || arg === '--unset' || arg === '-C' || arg === '--chdir') i++;
      else if (arg === '-S' || arg.startsWith('--split-string'))
        return { command: 'env', args: [], envNames, warnings: [shellCommand('env -S', args[i + 1] ?? arg)] };
      else if (arg.startsWith('-')) continue;
      else if (/^[^=]+=/.test(arg)) envNames.push(arg.slice(0, arg.indexOf('=')));
      else return { command: arg, args: args.slice(i + 1), envNames, warnings: [] };
    }
    return undefined;
  }
  if (program === 'cmd') {
    const line = cmdRest(args);
    if (line === undefined || CMD_SPECIAL.test(line.join(' '))) return undefined;
    const [command, ...rest] = line;
    return command === undefined ? undefined : { command, args: rest, envNames: [], warnings: [] };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------------
// Containers: `docker run` / `podman run` options that take away the container's isolation from this computer.

// `docker run` options that take a value as the next word, so their value is not read as the image.
// prettier-ignore
const DOCKER_VALUE_OPTIONS = new Set([
  '-e', '--env', '--env-file', '-v', '--volume', '--mount', '-p', '--publish', '--name', '-w', '--workdir', '--network',
  '--net', '-u', '--user', '--entrypoint', '-l', '--label', '--cap-add', '--cap-drop', '--pid', '--ipc', '-h',
  '--hostname', '--add-host', '--device', '--platform', '--pull', '--restart', '-m', '--memory', '--cpus',
  '--security-opt', '--tmpfs', '--ulimit', '--log-driver', '--log-opt', '--dns', '--cgroupns', '--uts', '--userns',
  '--runtime', '--gpus', '--shm-size', '--stop-signal', '--volumes-from', '--label-file', '--cidfile', '--expose',
  '--device-cgroup-rule',
]);

/** One container option that weakens isolation: which option names, when its value does, and what to say. */
interface ContainerRule {
  names: readonly string[];
  /** The option's value (undefined for a bare flag) makes it apply. */
  applies: (value: string | undefined) => boolean;
  code: LaunchWarningCode;
  text: (program: string, value: string | undefined) => string;
}

const isHost = (value: string | undefined): boolean => value?.toLowerCase() === 'host';

/** Every container option the warnings know, one row each. */
const CONTAINER_RULES: readonly ContainerRule[] = [
  {
    names: ['--privileged'],
    applies: (v) => v === undefined || v.toLowerCase() !== 'false',
    code: 'container_privileged',
    text: (p) =>
      `${p} runs the container with --privileged: it gets every device and kernel capability of your computer, so it is not isolated from it.`,
  },
  {
    names: ['-v', '--volume'],
    applies: (v) => mountsHostRoot(v?.split(':')[0]),
    code: 'container_host_root',
    text: (p, v) => `${p} mounts your computer's whole file system (/) into the container (${quote(v ?? '')}).`,
  },
  {
    names: ['--mount'],
    applies: (v) => mountsHostRoot(mountSource(v)),
    code: 'container_host_root',
    text: (p, v) => `${p} mounts your computer's whole file system (/) into the container (${quote(v ?? '')}).`,
  },
  {
    names: ['-v', '--volume'],
    applies: (v) => mountsDockerSocket(v?.split(':')[0]),
    code: 'container_engine_socket',
    text: (p, v) =>
      `${p} gives the container the container engine's socket (${quote(v ?? '')}): with it, the container can start other containers with full access to your computer.`,
  },
  {
    names: ['--mount'],
    applies: (v) => mountsDockerSocket(mountSource(v)),
    code: 'container_engine_socket',
    text: (p, v) =>
      `${p} gives the container the container engine's socket (${quote(v ?? '')}): with it, the container can start other containers with full access to your computer.`,
  },
  {
    names: ['--network', '--net'],
    applies: isHost,
    code: 'container_host_network',
    text: (p) =>
      `${p} shares your computer's network with the container (--network host): it can reach every service listening on this machine, including ones only open to localhost.`,
  },
  {
    names: ['--pid'],
    applies: isHost,
    code: 'container_host_pid',
    text: (p) => `${p} shares your computer's processes with the container (--pid host): it can see and signal them.`,
  },
  {
    names: ['--ipc', '--uts', '--userns', '--cgroupns'],
    applies: isHost,
    code: 'container_host_namespace',
    text: (p) => `${p} shares one of your computer's namespaces with the container (… host), so it is less isolated from it.`,
  },
  {
    names: ['--cap-add'],
    applies: (v) => v !== undefined,
    code: 'container_capability',
    text: (p, v) =>
      `${p} gives the container the kernel capability ${quote(v ?? '')}${v?.toUpperCase() === 'ALL' ? ' (every one)' : ''}: it can do things on your computer an ordinary container cannot.`,
  },
  {
    names: ['--device'],
    applies: (v) => v !== undefined,
    code: 'container_device',
    text: (p, v) => `${p} gives the container direct access to your computer's device ${quote(v ?? '')}.`,
  },
  {
    names: ['--device-cgroup-rule'],
    applies: (v) => v !== undefined,
    code: 'container_device',
    text: (p, v) => `${p} lets the container use devices of your computer matching ${quote(v ?? '')}.`,
  },
  {
    names: ['--security-opt'],
    applies: (v) => v !== undefined && /^(seccomp|apparmor|systempaths)[=:]unconfined$|^label[=:]disable$/i.test(v),
    code: 'container_unconfined',
    text: (p, v) => `${p} turns off one of the container's protections (${quote(v ?? '')}).`,
  },
];

function containerWarnings(program: string, args: readonly string[]): LaunchWarning[] {
  let start: number;
  if (args[0] === 'run') start = 1;
  else if (args[0] === 'container' && args[1] === 'run') start = 2;
  else return [];
  const out: LaunchWarning[] = [];
  for (let i = start; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || !arg.startsWith('-')) break;
    const { name, inline } = splitOption(arg);
    const value = inline ?? (DOCKER_VALUE_OPTIONS.has(name) ? args[++i] : undefined);
    for (const rule of CONTAINER_RULES)
      if (rule.names.includes(name) && rule.applies(value)) out.push(warn(rule.code, rule.text(program, value)));
  }
  return out;
}

function mountSource(spec: string | undefined): string | undefined {
  for (const part of (spec ?? '').split(',')) {
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

/** The Docker or Podman socket (`/var/run/docker.sock`, `/run/podman/podman.sock`, Windows' named pipe). */
function mountsDockerSocket(source: string | undefined): boolean {
  if (source === undefined) return false;
  return /(^|\/)(docker|podman)\.sock$/.test(source) || /^\\\\\.\\pipe\\docker_engine$/i.test(source);
}

// ---------------------------------------------------------------------------------------------------------------------
// Environment variables that make a program load code the entry chose before (or instead of) the program's own.

/** One family of variables: the names (exact, or a prefix ending in `*`), and what they do. */
interface EnvRule {
  names: readonly string[];
  code: LaunchWarningCode;
  text: (name: string) => string;
}

/** Every code-loading variable the warnings know, one row each (the first row that matches a name wins). */
const ENV_RULES: readonly EnvRule[] = [
  {
    names: ['NODE_OPTIONS'],
    code: 'env_node_options',
    text: () => `NODE_OPTIONS is set: it can make Node load any script (--require, --import) before the program starts.`,
  },
  {
    names: ['LD_PRELOAD', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES'],
    code: 'env_library_preload',
    text: (n) => `${n} is set: it loads the libraries it names into the program before it starts.`,
  },
  {
    names: ['LD_LIBRARY_PATH', 'DYLD_*'],
    code: 'env_library_path',
    text: (n) => `${n} is set: it changes where the program's libraries are loaded from, so other code can run in their place.`,
  },
  {
    names: ['PYTHONSTARTUP'],
    code: 'env_python_startup',
    text: () => `PYTHONSTARTUP is set: Python runs the file it names when it starts interactively.`,
  },
  {
    names: ['PYTHONPATH', 'PYTHONHOME', 'PYTHONUSERBASE', 'NODE_PATH', 'PERL5LIB', 'PERLLIB', 'RUBYLIB'],
    code: 'env_module_path',
    text: (n) =>
      `${n} is set: it changes where the program's modules are loaded from, so a module of the same name from another folder can run in their place.`,
  },
  {
    names: ['PERL5OPT', 'RUBYOPT', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS'],
    code: 'env_interpreter_options',
    text: (n) => `${n} is set: it adds options to the interpreter that can make it load any code before the program starts.`,
  },
  {
    names: ['BASH_ENV'],
    code: 'env_shell_startup',
    text: () => `BASH_ENV is set: every bash script the program runs first runs the file it names.`,
  },
  {
    names: ['ENV'],
    code: 'env_shell_startup',
    text: () => `ENV is set: a shell the program starts (sh, and bash as sh) runs the file it names first.`,
  },
];

function envRule(name: string): EnvRule | undefined {
  const upper = name.toUpperCase();
  return ENV_RULES.find((r) => r.names.some((n) => (n.endsWith('*') ? upper.startsWith(n.slice(0, -1)) : upper === n)));
}

function envWarnings(names: readonly string[]): LaunchWarning[] {
  return [...names].sort().flatMap((name) => {
    const rule = envRule(name);
    return rule ? [warn(rule.code, rule.text(name))] : [];
  });
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
