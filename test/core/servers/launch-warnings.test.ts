// Launch warnings: each pattern that changes what a launch does is named in plain words, and ordinary launches that
// only look alike (an option after the package belongs to the package, a read-only bind of a folder) say nothing.
import { describe, expect, it } from 'vitest';
import { launchWarnings, type LaunchShape } from '../../../electron/core/servers/launch-warnings.js';

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
