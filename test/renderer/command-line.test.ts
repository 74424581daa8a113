// The Add dialog's pasted command line split: words as a POSIX shell splits them, nothing expanded.
import { describe, expect, it } from 'vitest';
import { looksLikeCommandLine, splitCommandLine } from '../../renderer/src/lib/command-line';

describe('splitCommandLine', () => {
  it('splits a plain npx line', () => {
    expect(splitCommandLine('npx -y @modelcontextprotocol/server-everything stdio')).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'],
      shellOperators: [],
    });
  });

  it('keeps quoted words together and removes the quotes', () => {
    expect(splitCommandLine(`node "/Users/ada/My Servers/index.js" --name 'two words' --empty ""`)?.args).toEqual([
      '/Users/ada/My Servers/index.js',
      '--name',
      'two words',
      '--empty',
      '',
    ]);
    expect(splitCommandLine(`uvx mcp-server --json '{"a": "b c"}'`)?.args).toEqual(['mcp-server', '--json', '{"a": "b c"}']);
    expect(splitCommandLine(`cmd "say \\"hi\\"" it\\'s a\\ b`)?.args).toEqual(['say "hi"', "it's", 'a b']);
    expect(splitCommandLine(`x --flag="quoted value"`)?.args).toEqual(['--flag=quoted value']);
  });

  it('treats runs of spaces, tabs and line breaks as one separator', () => {
    expect(splitCommandLine('  docker\trun  -i\n--rm   image  ')).toEqual({
      command: 'docker',
      args: ['run', '-i', '--rm', 'image'],
      shellOperators: [],
    });
  });

  it('reports unquoted shell operators it passes literally, but not quoted ones', () => {
    expect(splitCommandLine('cat a | grep b && echo $(whoami)')?.shellOperators).toEqual(['|', '&&', '$(whoami)']);
    expect(splitCommandLine(`echo "a | b" '&&'`)?.shellOperators).toEqual([]);
  });

  it('returns null for an open quote or an empty line', () => {
    expect(splitCommandLine('node "unterminated')).toBeNull();
    expect(splitCommandLine("node 'x")).toBeNull();
    expect(splitCommandLine('   ')).toBeNull();
  });

  it('offers a split only for more than one word', () => {
    expect(looksLikeCommandLine('npx -y pkg')).toBe(true);
    expect(looksLikeCommandLine('/usr/local/bin/server')).toBe(false);
    expect(looksLikeCommandLine('"/Applications/My App/server"')).toBe(false);
    expect(looksLikeCommandLine('node "open')).toBe(false);
  });
});
