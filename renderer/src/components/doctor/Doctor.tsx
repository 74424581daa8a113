// The connection doctor: the failure in plain words, what to do next, and the evidence (PATH once, wrapped).
import { Alert, Box, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { AppErrorData } from '../../../../shared/errors';
import { doctorView } from '../../lib/doctor-text';
import { CodeBlock } from '../../ui/CodeBlock';
import { cleanText } from '../../ui/text';

/** The doctor panel for a failed connection. */
export function Doctor(props: { error: AppErrorData }) {
  const view = doctorView(props.error);
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle size={20} aria-hidden />}
      title={cleanText(view.headline)}
      aria-label="Connection problem"
      data-testid="doctor"
    >
      <Stack gap="sm">
        <Text size="sm" data-testid="doctor-next-step">
          <Text span fw={600}>
            What to do:{' '}
          </Text>
          {view.nextStep}
        </Text>
        {view.facts.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={4}>
            {view.facts.map((f) => (
              <Group key={f.label} gap={6} wrap="nowrap" align="baseline">
                <Text size="xs" c="dimmed" fw={600} style={{ flex: 'none' }}>
                  {f.label}
                </Text>
                <Text size="sm" className={f.mono ? 'sb-mono' : undefined} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                  {cleanText(f.value)}
                </Text>
              </Group>
            ))}
          </SimpleGrid>
        )}
        {view.searchedPath && (
          <Box>
            <Text size="xs" c="dimmed" fw={600} mb={4}>
              PATH searched
            </Text>
            <Group gap={4} data-testid="doctor-path">
              {view.searchedPath.map((d, i) => (
                <Code key={`${d}-${i}`} className="sb-mono">
                  {cleanText(d)}
                </Code>
              ))}
            </Group>
          </Box>
        )}
        {view.stderr && (
          <Box>
            <Text size="xs" c="dimmed" fw={600} mb={4}>
              Last lines the server wrote (stderr)
            </Text>
            <CodeBlock maxHeight={200} aria-label="Last lines the server wrote">
              {view.stderr.join('\n')}
            </CodeBlock>
          </Box>
        )}
      </Stack>
    </Alert>
  );
}
