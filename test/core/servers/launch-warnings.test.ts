// Launch warnings: each pattern that changes what a launch does is named in plain words, and ordinary launches that
// only look alike (an option after the package belongs to the package, a read-only bind of a folder) say nothing.
import { describe, expect, it } from 'vitest';
import { launchWarnings, type LaunchShape } from '../../../electron/core/servers/launch-warnings.js';
import { HOSTILE_LAUNCHES } from './hostile-launches.js';

const codes = (command: string, args: string[], envNames: string[] = []): string[] =>
  launchWarnings({ command, args, envNames } satisfies LaunchShape).map((w) => w.code);

describe('npx', () => {
  it('-c / --call: the string runs in a shell, and the warning quotes it', () => {
    const [w] = launchWarnings({ command: 'npx', args: ['-y', '-c', 'echo hi'], envNames: [] });
    expect(w).toEqual({ code: 'npx_shell_command', text: expect.stringContaining('“echo hi”') });
    expect(w!.text).toMatch(/shell command line/);
    expect(codes('npx', ['--call', 'curl x | sh'])).toEqual(['npx_shell_command']);
    expect(codes('npx', ['--call=rm -rf ~'])).toEqual(['npx_shell_command']);
    expect(codes('/usr/local/bin/npx', ['-c', 'id'])).toEqual(['npx_shell_command']);
    expect(codes('C:\\Program Files\\nodejs\\npx.cmd', ['-c', 'id'])).toEqual(['npx_shell_command']);
    expect(codes('npm', ['exec', '-c', 'id'])).toEqual(['npx_shell_command']);
  });

  it('--package / -p: another package than the one named runs', () => {
    const [w] = launchWarnings({ command: 'npx', args: ['-y', '--package', 'evil@1.0.0', 'good-server'], envNames: [] });
    expect(w).toEqual({ code: 'npx_other_package', text: expect.stringContaining('“evil@1.0.0”') });
    expect(codes('npx', ['-p', 'other@x', 'cmd'])).toEqual(['npx_other_package']);
    expect(codes('npx', ['--package=other@x', 'cmd'])).toEqual(['npx_other_package']);
    expect(codes('npm', ['x', '--package', 'other', 'cmd'])).toEqual(['npx_other_package']);
  });

  it('says nothing for an ordinary npx launch, or for options that belong to the package', () => {
    expect(codes('npx', ['-y', 'pkg'])).toEqual([]);
    expect(codes('npx', ['-y', '@modelcontextprotocol/server-everything'])).toEqual([]);
    expect(codes('npx', ['-y', 'pkg', '-c', 'config.json'])).toEqual([]);
    expect(codes('npx', ['pkg', '--package', 'x'])).toEqual([]);
    expect(codes('npx', ['--', '-c', 'x'])).toEqual([]);
    expect(codes('npm', ['run', '-c', 'x'])).toEqual([]);
    // Not npx at all.
    expect(codes('node', ['-c', 'x'])).toEqual([]);
    expect(codes('npxtool', ['-c', 'x'])).toEqual([]);
  });

  it('shows what a quoted argument hides: control and bidi characters become visible escapes', () => {
    const [w] = launchWarnings({ command: 'sh', args: ['-c', 'echo ok\u202e\n\u001b]0;x\u0007rm -rf ~'], envNames: [] });
    expect(w!.text).toContain('“echo ok\\u202e\\n\\x1b]0;x\\x07rm -rf ~”');
    expect(w!.text).not.toMatch(/[\u0000-\u001f\u202e]/);
  });

  it('bounds what it quotes', () => {
    const [w] = launchWarnings({ command: 'npx', args: ['-c', 'x'.repeat(10_000)], envNames: [] });
    expect(w!.text.length).toBeLessThan(400);
    expect(w!.text).toContain('…');
  });
});

describe('docker run', () => {
  it('--privileged', () => {
    const [w] = launchWarnings({ command: 'docker', args: ['run', '-i', '--rm', '--privileged', 'img'], envNames: [] });
    expect(w).toEqual({ code: 'container_privileged', text: expect.stringMatching(/not isolated/) });
    expect(codes('podman', ['run', '--privileged=true', 'img'])).toEqual(['container_privileged']);
    expect(codes('docker', ['run', '--privileged=false', 'img'])).toEqual([]);
  });

  it('a mount of the host root', () => {
    expect(codes('docker', ['run', '-v', '/:/host', 'img'])).toEqual(['container_host_root']);
    expect(codes('docker', ['run', '--volume', '/:/host:ro', 'img'])).toEqual(['container_host_root']);
    expect(codes('docker', ['run', '--volume=/:/host', 'img'])).toEqual(['container_host_root']);
    expect(codes('docker', ['run', '--mount', 'type=bind,source=/,target=/host', 'img'])).toEqual(['container_host_root']);
    expect(codes('docker', ['container', 'run', '--privileged', '-v', '/:/host', 'img'])).toEqual([
      'container_privileged',
      'container_host_root',
    ]);
  });

  it('the host network and processes', () => {
    const [w] = launchWarnings({ command: 'docker', args: ['run', '--network', 'host', 'img'], envNames: [] });
    expect(w).toEqual({ code: 'container_host_network', text: expect.stringMatching(/localhost/) });
    expect(codes('docker', ['run', '--net=host', 'img'])).toEqual(['container_host_network']);
    expect(codes('docker', ['run', '--pid', 'host', 'img'])).toEqual(['container_host_pid']);
  });

  it('says nothing for an ordinary container, or for the same words after the image', () => {
    expect(codes('docker', ['run', '-i', '--rm', '-e', 'TOKEN', 'mcp/github'])).toEqual([]);
    expect(codes('docker', ['run', '-v', '/home/me/project:/work', '--network', 'bridge', 'img'])).toEqual([]);
    expect(codes('docker', ['run', '--mount', 'type=bind,source=/data,target=/data', 'img'])).toEqual([]);
    expect(codes('docker', ['run', 'img', '--privileged', '-v', '/:/host'])).toEqual([]);
    // A value option's value is not the image: --name privileged, then the image.
    expect(codes('docker', ['run', '--name', '--privileged', 'img'])).toEqual([]);
    expect(codes('docker', ['exec', '--privileged', 'box'])).toEqual([]);
  });
});

describe('environment set by the entry', () => {
  it('names each code-loading variable (only names reach the warnings: values may be secrets)', () => {
    const warnings = launchWarnings({
      command: 'node',
      args: ['server.js'],
      envNames: ['NODE_OPTIONS', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'DYLD_FRAMEWORK_PATH', 'PYTHONSTARTUP'],
    });
    expect(warnings.map((w) => [w.code, w.text.split(' ')[0]])).toEqual([
      ['env_library_path', 'DYLD_FRAMEWORK_PATH'],
      ['env_library_preload', 'DYLD_INSERT_LIBRARIES'],
      ['env_library_path', 'LD_LIBRARY_PATH'],
      ['env_library_preload', 'LD_PRELOAD'],
      ['env_node_options', 'NODE_OPTIONS'],
      ['env_python_startup', 'PYTHONSTARTUP'],
    ]);
  });

  it('says nothing for ordinary variables', () => {
    expect(codes('node', ['s.js'], ['API_KEY', 'NODE_ENV', 'PATH_PREFIX', 'PYTHONPATH_X', 'LD_PRELOADED_X'])).toEqual([]);
  });

  it('a launch can carry several warnings, command line first', () => {
    expect(codes('npx', ['-y', '-c', 'echo hi'], ['NODE_OPTIONS'])).toEqual(['npx_shell_command', 'env_node_options']);
  });
});

describe('every hostile launch pattern', () => {
  it.each(HOSTILE_LAUNCHES)('$what', ({ launch, code, says }) => {
    const warnings = launchWarnings(launch);
    const hit = warnings.find((w) => w.code === code);
    expect(hit, JSON.stringify(warnings)).toBeDefined();
    expect(hit!.text).toMatch(says);
  });
});

describe('package runners other than npx', () => {
  it('quote the package or string they are given, and say nothing for an ordinary launch', () => {
    expect(launchWarnings({ command: 'uvx', args: ['--from', 'evil-pkg', 'mcp-server-time'], envNames: [] })).toEqual([
      { code: 'runner_other_package', text: expect.stringContaining('“evil-pkg”') },
    ]);
    expect(codes('uvx', ['mcp-server-time'])).toEqual([]);
    expect(codes('uvx', ['--python', '3.12', 'mcp-server-fetch'])).toEqual([]);
    // After the package, the words are the package's own.
    expect(codes('uvx', ['mcp-server-fetch', '--from', 'x'])).toEqual([]);
    expect(codes('pnpm', ['dlx', '@scope/server'])).toEqual([]);
    expect(codes('pnpm', ['install', '--package', 'x'])).toEqual([]);
    expect(codes('pnpm', ['exec', 'tool'])).toEqual([]);
    expect(codes('yarn', ['dlx', 'server'])).toEqual([]);
    expect(codes('yarn', ['add', '-p', 'x'])).toEqual([]);
    expect(codes('bunx', ['server', '-p', 'x'])).toEqual([]);
    expect(codes('bun', ['run', '-p', 'x'])).toEqual([]);
    expect(codes('uv', ['pip', 'install', '--index-url', 'https://example.test'])).toEqual([]);
  });

  it('pnpm --shell-mode quotes the command the shell runs', () => {
    const [w] = launchWarnings({ command: 'pnpm', args: ['--package', 'cowsay', '-c', 'dlx', 'echo hi | cowsay'], envNames: [] });
    expect(w).toEqual({ code: 'runner_other_package', text: expect.stringContaining('“cowsay”') });
    expect(codes('pnpm', ['--package', 'cowsay', '-c', 'dlx', 'echo hi | cowsay'])).toEqual([
      'runner_other_package',
      'runner_shell_command',
    ]);
    expect(launchWarnings({ command: 'pnpm', args: ['dlx', '-c', 'echo hi | cowsay'], envNames: [] })[0]!.text).toContain(
      '“echo hi | cowsay”',
    );
  });
});

describe('shells', () => {
  it('a command string is quoted; a script, or a plain cmd /c start of one program, says nothing', () => {
    expect(launchWarnings({ command: '/bin/bash', args: ['-lc', 'source ~/.nvm/nvm.sh && npx pkg'], envNames: [] })).toEqual([
      { code: 'shell_command', text: expect.stringContaining('“source ~/.nvm/nvm.sh && npx pkg”') },
    ]);
    expect(codes('bash', ['server.sh'])).toEqual([]);
    expect(codes('sh', ['-e', 'server.sh', '-c', 'x'])).toEqual([]);
    expect(codes('pwsh', ['-File', 'server.ps1', '-Command', 'x'])).toEqual([]);
    expect(codes('pwsh', ['server.ps1'])).toEqual([]);
    // The usual way to start npx on Windows: cmd is looked through, so only what npx is told counts.
    expect(codes('cmd', ['/c', 'npx', '-y', '@modelcontextprotocol/server-filesystem', 'C:\\Users\\me'])).toEqual([]);
    expect(codes('cmd.exe', ['/c', 'npx', '-y', '-c', 'calc'])).toEqual(['npx_shell_command']);
    expect(codes('cmd', ['/c', 'npx -y pkg & calc'])).toEqual(['shell_command']);
  });

  it('PowerShell: parameter prefixes count, and an encoded command is decoded to be read', () => {
    expect(codes('powershell', ['-NoProfile', '-ExecutionPolicy', 'Bypass', '-c', 'iwr x | iex'])).toEqual(['shell_command']);
    expect(codes('pwsh', ['-nop', '-Comm', 'Get-Process'])).toEqual(['shell_command']);
    const encoded = Buffer.from('Start-Process calc', 'utf16le').toString('base64');
    const [w] = launchWarnings({ command: 'powershell.exe', args: ['-enc', encoded], envNames: [] });
    expect(w).toEqual({ code: 'shell_command', text: expect.stringContaining('“Start-Process calc”') });
  });
});

describe('interpreters given inline code', () => {
  const first = (command: string, args: string[]) => launchWarnings({ command, args, envNames: [] })[0];

  it('each form says plainly that inline code from the arguments runs, and shows it', () => {
    const forms: [string, string[], string][] = [
      ['node', ['-e', 'E'], 'E'],
      ['node', ['--eval', 'E'], 'E'],
      ['node', ['--eval=E'], 'E'],
      ['node', ['-p', 'P'], 'P'],
      ['node', ['--print', 'P'], 'P'],
      ['node', ['-pe', 'P'], 'P'],
      ['node', ['--require', './x.js', '-e', 'E'], 'E'],
      ['nodejs', ['-e', 'E'], 'E'],
      ['python', ['-c', 'C'], 'C'],
      ['python3', ['-c', 'C'], 'C'],
      ['python3.12', ['-u', '-W', 'ignore', '-c', 'C'], 'C'],
      ['python3', ['-Ic', 'C'], 'C'],
      ['python3', ['-cC'], 'C'],
      ['py', ['-3', '-c', 'C'], 'C'],
      ['C:\\Python312\\python.exe', ['-c', 'C'], 'C'],
      ['deno', ['eval', 'D'], 'D'],
      ['deno', ['eval', '--ext', 'ts', 'D'], 'D'],
      ['bun', ['-e', 'B'], 'B'],
      ['bun', ['--eval', 'B'], 'B'],
      ['bun', ['--print', 'B'], 'B'],
      ['perl', ['-e', 'L'], 'L'],
      ['perl', ['-E', 'L'], 'L'],
      ['perl', ['-Mstrict', '-ne', 'L'], 'L'],
      ['ruby', ['-e', 'R'], 'R'],
      ['ruby', ['-rjson', '-e', 'R'], 'R'],
    ];
    for (const [command, args, code] of forms) {
      const w = first(command, args);
      expect(w, `${command} ${args.join(' ')}`).toEqual({
        code: 'inline_code',
        text: expect.stringContaining(`runs the inline code “${code}” given in its arguments`),
      });
    }
  });

  it('shells, PowerShell and cmd given a command string say it runs, quoted', () => {
    const forms: [string, string[], string][] = [
      ['bash', ['-c', 'S'], 'S'],
      ['sh', ['-c', 'S'], 'S'],
      ['zsh', ['-c', 'S'], 'S'],
      ['pwsh', ['-Command', 'S'], 'S'],
      ['powershell', ['-c', 'S'], 'S'],
      ['cmd', ['/c', 'S & T'], 'S & T'],
    ];
    for (const [command, args, code] of forms)
      expect(first(command, args), `${command} ${args.join(' ')}`).toEqual({
        code: 'shell_command',
        text: expect.stringContaining(`runs “${code}” as a command line`),
      });
    // Through npx -c the whole string is shown, inline code and all.
    expect(first('npx', ['-y', '-c', 'node -e "x"'])).toEqual({
      code: 'npx_shell_command',
      text: expect.stringContaining('“node -e "x"”'),
    });
    // Through cmd /c with a plain line, the interpreter it starts is read.
    expect(codes('cmd', ['/c', 'python', '-c', 'x'])).toEqual(['inline_code']);
  });

  it('says nothing for a script, a module, or the same letters after the script', () => {
    expect(codes('node', ['server.js'])).toEqual([]);
    expect(codes('node', ['server.js', '-e', 'x'])).toEqual([]);
    expect(codes('node', ['-c', 'x'])).toEqual([]);
    expect(codes('node', ['--require', '-e', 'server.js'])).toEqual([]);
    expect(codes('python3', ['-m', 'mcp_server_time', '-c', 'x'])).toEqual([]);
    expect(codes('python3', ['-u', 'server.py', '-c', 'x'])).toEqual([]);
    expect(codes('python3', ['-W', '-c', 'server.py'])).toEqual([]);
    expect(codes('deno', ['run', '-A', 'server.ts'])).toEqual([]);
    expect(codes('deno', ['run', 'server.ts', 'eval', 'x'])).toEqual([]);
    expect(codes('bun', ['run', 'server.ts'])).toEqual([]);
    expect(codes('perl', ['server.pl', '-e', 'x'])).toEqual([]);
    expect(codes('ruby', ['server.rb', '-e', 'x'])).toEqual([]);
    expect(codes('nodemon', ['-e', 'ts'])).toEqual([]);
  });

  it('bounds and escapes what it quotes', () => {
    const w = first('node', ['-e', `x\u202e${'y'.repeat(10_000)}`]);
    expect(w!.text.length).toBeLessThan(400);
    expect(w!.text).toContain('\\u202e');
  });
});

describe('wrappers', () => {
  it('env NAME=… counts as the entry setting NAME, and what env starts is read as the launch', () => {
    expect(codes('env', ['LD_PRELOAD=/tmp/x.so', 'node', 'server.js'])).toEqual(['env_library_preload']);
    expect(codes('/usr/bin/env', ['-i', 'NODE_OPTIONS=--require=/tmp/x.js', 'npx', '-y', '-c', 'id'])).toEqual([
      'npx_shell_command',
      'env_node_options',
    ]);
    expect(codes('env', ['-S', 'node server.js'])).toEqual(['shell_command']);
    expect(codes('env', ['FOO=1', 'node', 'server.js'])).toEqual([]);
  });
});

describe('containers, beyond privileged and the host root', () => {
  it('an ordinary capability drop, a named network or a private namespace says nothing', () => {
    expect(codes('docker', ['run', '--cap-drop', 'ALL', '--network', 'mcp', '--ipc', 'private', 'img'])).toEqual([]);
    expect(codes('docker', ['run', '--security-opt', 'no-new-privileges', '-v', '/home/me/docker.sock.d:/x', 'img'])).toEqual([]);
  });
});
