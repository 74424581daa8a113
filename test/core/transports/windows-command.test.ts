// Windows command resolution and batch-file quoting, tested here with a simulated Windows environment (platform,
// environment and file probe passed in): PATHEXT lookup without a shell, the current folder never searched, and
// arguments for .cmd/.bat files quoted so cmd.exe cannot be made to run anything else.
import { describe, expect, it } from 'vitest';
import {
  batchCommandLine,
  findWindowsCommand,
  quoteBatchArgument,
  resolveLaunch,
} from '../../../electron/core/transports/windows-command.js';

const files = (...paths: string[]): ((p: string) => boolean) => {
  const set = new Set(paths.map((p) => p.toLowerCase()));
  return (p) => set.has(p.toLowerCase());
};
const env = {
  Path: 'C:\\Windows\\System32;"C:\\Program Files\\nodejs";C:\\Users\\me\\AppData\\Roaming\\npm',
  PATHEXT: '.COM;.EXE;.BAT;.CMD',
  ComSpec: 'C:\\Windows\\System32\\cmd.exe',
};
const win = { platform: 'win32' as const, env };

/** What cmd.exe sees after /c strips the outer quotes: each character and whether it is inside quotes. */
function cmdView(line: string): { ch: string; quoted: boolean }[] {
  expect(line.startsWith('"') && line.endsWith('"')).toBe(true);
  const inner = line.slice(1, -1);
  const out: { ch: string; quoted: boolean }[] = [];
  let quoted = false;
  for (const ch of inner) {
    if (ch === '"') quoted = !quoted;
    out.push({ ch, quoted });
  }
  return out;
}

describe('resolveLaunch', () => {
  it('leaves the command alone off Windows (execvp searches PATH)', () => {
    expect(resolveLaunch({ command: 'npx', args: ['-y', 'x'], env: {}, platform: 'linux' })).toEqual({
      file: 'npx',
      args: ['-y', 'x'],
      windowsVerbatimArguments: false,
    });
  });

  it('finds npx as npx.cmd through PATHEXT and runs it through cmd.exe with a quoted line', () => {
    const launch = resolveLaunch({
      ...win,
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything', 'C:\\my data\\'],
      isFile: files('C:\\Program Files\\nodejs\\npx.cmd'),
    });
    expect(launch).toEqual({
      file: 'C:\\Windows\\System32\\cmd.exe',
      args: [
        '/e:ON',
        '/v:OFF',
        '/d',
        '/c',
        '""C:\\Program Files\\nodejs\\npx.cmd" -y @modelcontextprotocol/server-everything "C:\\my data\\\\""',
      ],
      windowsVerbatimArguments: true,
      resolved: 'C:\\Program Files\\nodejs\\npx.cmd',
    });
  });

  it('runs an .exe directly, honours PATHEXT order and PATH order, and finds names with an extension as written', () => {
    const isFile = files(
      'C:\\Program Files\\nodejs\\node.exe',
      'C:\\Program Files\\nodejs\\node.cmd',
      'C:\\Users\\me\\AppData\\Roaming\\npm\\node.exe',
    );
    expect(resolveLaunch({ ...win, command: 'node', args: ['a b'], isFile })).toEqual({
      file: 'C:\\Program Files\\nodejs\\node.exe',
      args: ['a b'],
      windowsVerbatimArguments: false,
      resolved: 'C:\\Program Files\\nodejs\\node.exe',
    });
    expect(findWindowsCommand('node.cmd', env, undefined, isFile)).toBe('C:\\Program Files\\nodejs\\node.cmd');
  });

  it('resolves a relative path against the working folder but never searches the working folder for a bare name', () => {
    const isFile = files('D:\\proj\\tools\\serve.bat', 'D:\\proj\\npx.cmd');
    expect(findWindowsCommand('tools\\serve', env, 'D:\\proj', isFile)).toBe('D:\\proj\\tools\\serve.bat');
    expect(findWindowsCommand('npx', env, 'D:\\proj', isFile)).toBeUndefined();
  });

  it('reads PATH and PATHEXT case-insensitively, defaults PATHEXT, and falls back to the name when nothing is found', () => {
    const isFile = files('C:\\bin\\tool.com');
    expect(findWindowsCommand('tool', { path: 'C:\\bin' }, undefined, isFile)).toBe('C:\\bin\\tool.com');
    expect(resolveLaunch({ ...win, command: 'missing', args: ['x'], isFile })).toEqual({
      file: 'missing',
      args: ['x'],
      windowsVerbatimArguments: false,
    });
  });
});

describe('batch-file arguments', () => {
  const hostile = [
    '"&calc.exe',
    '" & calc.exe & "',
    'a\\" & calc',
    '%PATH%',
    '%%cd%%',
    '^&|<>()',
    '!COMSPEC!',
    'x\\',
    'a"b"c',
    '\\\\server\\share\\',
    'ü & ñ',
    '',
    '   ',
    '--flag=value;other',
  ];

  it.each(hostile)('keeps every cmd.exe operator of %j inside quotes', (arg) => {
    const view = cmdView(batchCommandLine('C:\\t\\s.cmd', [arg]));
    for (const { ch, quoted } of view) if ('&|<>()^'.includes(ch)) expect(quoted).toBe(true);
    // The line ends outside quotes: nothing after it can be taken as a new command.
    expect(view.at(-1)?.quoted ?? false).toBe(false);
  });

  it('defuses %VAR% so it is never expanded', () => {
    expect(quoteBatchArgument('%PATH%')).toBe('"%%cd:~,%PATH%%cd:~,%"');
    expect(quoteBatchArgument('100%')).toBe('"100%%cd:~,%"');
  });

  it('doubles quotes and the backslashes before them, and leaves safe words unquoted', () => {
    expect(quoteBatchArgument('plain-word_1.2:3')).toBe('plain-word_1.2:3');
    expect(quoteBatchArgument('a"b')).toBe('"a""b"');
    expect(quoteBatchArgument('a\\"b')).toBe('"a\\\\""b"');
    expect(quoteBatchArgument('dir\\')).toBe('"dir\\\\"');
    expect(quoteBatchArgument('')).toBe('""');
  });

  it('refuses line breaks and NUL, and a batch path it cannot quote', () => {
    for (const bad of ['a\nb', 'a\rb', 'a\0b'])
      expect(() => quoteBatchArgument(bad)).toThrow(expect.objectContaining({ code: 'spawn_failed' }));
    expect(() => batchCommandLine('C:\\a"b.cmd', [])).toThrow(expect.objectContaining({ code: 'spawn_failed' }));
    expect(() =>
      resolveLaunch({ ...win, command: 'npx', args: ['ok', 'two\nlines'], isFile: files('C:\\Program Files\\nodejs\\npx.cmd') }),
    ).toThrow(/line break/);
  });
});
