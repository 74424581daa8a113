// The server page's overview: what the server offers (counts linking to their tabs), who it says it is, its
// instructions as untrusted text, the folder its process runs in, and its log.
import { Badge, Box, Group, Paper, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ServerDetail } from '../../../../shared/contract';
import { routes } from '../../router/route';
import { useStore } from '../../store';
import { CodeBlock } from '../../ui/CodeBlock';
import { cleanText, oneLine } from '../../ui/text';
import { LogView } from './LogView';

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Group gap="sm" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" w={110} style={{ flex: 'none' }}>
        {label}
      </Text>
      <Box style={{ minWidth: 0 }} fz="sm" {...(testId ? { 'data-testid': testId } : {})}>
        {children}
      </Box>
    </Group>
  );
}

function CountCard({ value, label, onOpen }: { value: string; label: string; onOpen: () => void }) {
  return (
    <UnstyledButton onClick={onOpen} className="sb-row" style={{ border: '1px solid var(--mantine-color-default-border)' }} p="sm">
      <Text component="span" display="block" fz={24} fw={600} lh={1.2}>
        {value}
      </Text>
      <Text component="span" display="block" size="sm" c="dimmed">
        {label}
      </Text>
    </UnstyledButton>
  );
}

/** The overview tab. */
export function ServerOverview({ detail }: { detail: ServerDetail }) {
  const st = detail.status;
  const connected = st.state === 'connected';
  const counts = useStore((s) => s.counts[detail.id]);
  const navigate = useStore((s) => s.navigate);
  const caps = detail.identity?.capabilities ?? [];
  const open = (tab: string) => navigate(routes.servers(detail.id, tab), { replace: true });
  return (
    <Stack gap="lg">
      {connected ? (
        <Paper component="section" aria-labelledby="server-info-title" withBorder p="md">
          <Title order={2} size="h4" id="server-info-title" mb="sm">
            Server information
          </Title>
          <SimpleGrid cols={3} spacing="sm" mb="md">
            <CountCard
              value={counts?.tools !== undefined ? counts.tools.toLocaleString('en') : '…'}
              label={counts?.tools === 1 ? 'tool' : 'tools'}
              onOpen={() => open('tools')}
            />
            <CountCard
              value={
                !caps.includes('resources')
                  ? '0'
                  : counts?.resources !== undefined
                    ? `${counts.resources.toLocaleString('en')}${counts.moreResources ? '+' : ''}`
                    : '…'
              }
              label={counts?.resources === 1 && !counts.moreResources ? 'resource' : 'resources'}
              onOpen={() => open('resources')}
            />
            <CountCard
              value={!caps.includes('prompts') ? '0' : counts?.prompts !== undefined ? counts.prompts.toLocaleString('en') : '…'}
              label={counts?.prompts === 1 ? 'prompt' : 'prompts'}
              onOpen={() => open('prompts')}
            />
          </SimpleGrid>
          <Stack gap={6}>
            <Fact label="Protocol" testId="protocol-version">
              {st.protocolVersion ?? 'unknown'}
              {st.lifecycle ? ` (via ${st.lifecycle})` : ''}
            </Fact>
            {detail.identity && (
              <>
                <Fact label="Server">
                  {oneLine(detail.identity.title ?? detail.identity.name)}{' '}
                  <Text span c="dimmed" size="sm" className="sb-mono">
                    {oneLine(detail.identity.name)} {oneLine(detail.identity.version)}
                  </Text>
                </Fact>
                {detail.identity.description && <Fact label="Description">{cleanText(detail.identity.description)}</Fact>}
                <Fact label="Capabilities">
                  {caps.length === 0 ? (
                    'none'
                  ) : (
                    <Group gap={4}>
                      {caps.map((c) => (
                        <Badge key={c} size="sm" variant="light" color="gray" radius="sm" tt="none">
                          {c}
                        </Badge>
                      ))}
                    </Group>
                  )}
                </Fact>
              </>
            )}
          </Stack>
          {detail.identity?.instructions && (
            <Box mt="md">
              <Group gap="xs" mb={6}>
                <Title order={3} size="h6" id="server-instructions-title">
                  Instructions from the server
                </Title>
                <Badge size="xs" color="gray" variant="outline" tt="none">
                  untrusted
                </Badge>
              </Group>
              <CodeBlock maxHeight={240} aria-label="Instructions from the server" data-testid="server-instructions">
                {detail.identity.instructions}
              </CodeBlock>
            </Box>
          )}
        </Paper>
      ) : (
        <Text c="dimmed" size="sm">
          Connect the server to see its tools, resources and prompts.
        </Text>
      )}
      {detail.workDir !== undefined && (
        <Fact label="Runs in" testId="server-workdir">
          <Text span size="sm" className="sb-mono" style={{ overflowWrap: 'anywhere' }}>
            {oneLine(detail.workDir)}
          </Text>
        </Fact>
      )}
      <LogView />
    </Stack>
  );
}
