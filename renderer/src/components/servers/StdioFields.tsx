// The stdio section of the add/edit dialog: the program, its arguments, working directory and environment. A whole
// command line pasted into Command is offered split into the program and its arguments (quotes respected).
import { Alert, Box, Button, Code, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconBulb } from '@tabler/icons-react';
import { useMemo } from 'react';
import { looksLikeCommandLine, splitCommandLine } from '../../lib/command-line';
import { EnvironmentField } from './EnvironmentField';
import type { FormSectionProps } from './form-section';

/** Command, arguments, working directory and environment of a stdio server. */
export function StdioFields({ model: m, patch, errors }: FormSectionProps) {
  const split = useMemo(() => (looksLikeCommandLine(m.command) ? splitCommandLine(m.command) : null), [m.command]);
  const applySplit = (): void => {
    if (!split) return;
    const rest = m.args.split('\n').filter((l) => l.length > 0);
    patch({ command: split.command, args: [...split.args, ...rest].join('\n') });
  };
  return (
    <>
      <Box>
        <TextInput
          label="Command"
          required
          description="The program to run. It is started directly, never through a shell."
          value={m.command}
          error={errors['command']}
          onChange={(e) => patch({ command: e.currentTarget.value })}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          spellCheck={false}
        />
        {split && (
          <Alert
            color="blue"
            variant="light"
            mt="xs"
            p="sm"
            icon={<IconBulb size={18} aria-hidden />}
            aria-label="Split the command line"
            role="region"
          >
            <Stack gap={6}>
              <Text size="sm">
                This looks like a whole command line. Switchboard can split it: program{' '}
                <Code className="sb-chip-code">{split.command}</Code> with{' '}
                {split.args.length === 1 ? '1 argument' : `${split.args.length} arguments`}{' '}
                {split.args.map((a, i) => (
                  <Code key={i} mr={4} className="sb-chip-code">
                    {a === '' ? '""' : a}
                  </Code>
                ))}
              </Text>
              {split.shellOperators.length > 0 && (
                <Text size="sm" c="orange">
                  {split.shellOperators.join(' ')} would be passed to the program as text: Switchboard never runs a shell.
                </Text>
              )}
              <Group>
                <Button size="xs" variant="light" onClick={applySplit}>
                  Split into command and arguments
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
      </Box>
      <Textarea
        label="Arguments"
        description="One argument per line, exactly as the program receives it (no quotes needed)."
        rows={3}
        resize="vertical"
        value={m.args}
        error={errors['args']}
        onChange={(e) => patch({ args: e.currentTarget.value })}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        spellCheck={false}
      />
      <TextInput label="Working directory" value={m.cwd} error={errors['cwd']} onChange={(e) => patch({ cwd: e.currentTarget.value })} />
      <EnvironmentField model={m} patch={patch} errors={errors} />
    </>
  );
}
