// One tool: its title first (then the local name in small monospace and the server's name), its description, and
// directly under them the call form; hints, names and schemas are collapsed below. Server text is text only.
import { Accordion, Alert, Box, Button, Group, List, SimpleGrid, Spoiler, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconKey } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { ToolDetail } from '../../../../shared/domains/catalog';
import { prettyJson } from '../../../../shared/domains/catalog-text';
import { routes } from '../../router/route';
import { useStore } from '../../store';
import { selectServerName } from '../../store/servers-slice';
import { CodeBlock } from '../../ui/CodeBlock';
import { cleanText, oneLine } from '../../ui/text';
import { ToolChips } from './ToolList';

const HINTS: { key: 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'; label: string }[] = [
  { key: 'readOnlyHint', label: 'Read-only' },
  { key: 'destructiveHint', label: 'Destructive' },
  { key: 'idempotentHint', label: 'Idempotent' },
  { key: 'openWorldHint', label: 'Open world' },
];

/** Props of the tool detail panel. */
export interface ToolDetailPanelProps {
  tool: ToolDetail;
  /** Approves the definition shown (the fingerprint in `tool`). */
  onApprove: (name: string, fingerprint: string) => void;
  approving?: boolean;
  /** The call area; shown only while the tool may be called (a changed definition shows the approval banner instead). */
  callArea?: ReactNode;
}

/** "Changed since approved": the diff and the Approve button. */
export function PinBanner({
  tool,
  onApprove,
  approving,
}: {
  tool: ToolDetail;
  onApprove: (name: string, fingerprint: string) => void;
  approving?: boolean;
}) {
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />} title="Changed since approved" role="alert">
      <Stack gap="sm">
        <Text size="sm">
          The server changed this tool&apos;s definition after you first saw it. It cannot be called until you review and approve the new
          definition.
        </Text>
        {tool.diff.map((d) => (
          <Box key={d.field}>
            <Text size="sm" fw={600} mb={4}>
              {d.field}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
              <Box>
                <Text size="xs" c="dimmed">
                  Approved
                </Text>
                <CodeBlock maxHeight={240} aria-label={`${d.field} approved`}>
                  {d.before}
                </CodeBlock>
              </Box>
              <Box>
                <Text size="xs" c="dimmed">
                  Now
                </Text>
                <CodeBlock maxHeight={240} aria-label={`${d.field} now`}>
                  {d.after}
                </CodeBlock>
              </Box>
            </SimpleGrid>
          </Box>
        ))}
        <Group>
          <Button variant="filled" loading={approving === true} onClick={() => onApprove(tool.name, tool.fingerprint)}>
            Approve new definition
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** A tool of a server that lost its secrets: why it cannot be called and the one action that fixes it. */
function LostSecretBanner({ tool }: { tool: ToolDetail }) {
  const openDialog = useStore((s) => s.openDialog);
  const navigate = useStore((s) => s.navigate);
  const lost = tool.unavailable;
  if (!lost) return null;
  const one = lost.missingSecrets.length === 1;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconKey size={20} aria-hidden />}
      title="Unavailable: a secret was lost at restart"
      data-testid="tool-unavailable"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {oneLine(lost.message)}
        </Text>
        <Button
          size="xs"
          variant="filled"
          onClick={() => {
            // The server's page with its settings open on the secret (the dialog needs that page's details).
            navigate(routes.servers(tool.serverId));
            openDialog({ kind: 'editServer', id: tool.serverId });
          }}
        >
          Enter {one ? 'it' : 'them'} again
        </Button>
      </Stack>
    </Alert>
  );
}

/** The tool detail. */
export function ToolDetailPanel({ tool, onApprove, approving, callArea }: ToolDetailPanelProps) {
  const serverName = useStore(selectServerName(tool.serverId));
  const hints = HINTS.filter((h) => tool.annotations[h.key] !== undefined);
  const callable = tool.pin === 'approved' && tool.unavailable === undefined;
  const title = oneLine(tool.title ?? tool.annotations.title ?? tool.originalName);
  return (
    <Stack component="article" aria-labelledby="tool-title" data-testid="tool-detail" gap="sm">
      <Box>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Title order={2} size="h3" id="tool-title" style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          <ToolChips tool={tool} />
        </Group>
        <Text size="xs" c="dimmed" mt={2}>
          <Text span className="sb-mono" inherit data-testid="tool-local-name">
            {tool.name}
          </Text>
          {' · from '}
          <Text span inherit fw={500} data-testid="tool-server-name">
            {oneLine(serverName)}
          </Text>
        </Text>
      </Box>
      {tool.fullDescription ? (
        <Spoiler maxHeight={88} showLabel="Show the whole description" hideLabel="Show less">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {cleanText(tool.fullDescription)}
          </Text>
        </Spoiler>
      ) : (
        <Text size="sm" c="dimmed">
          No description.
        </Text>
      )}
      {tool.stale && (
        <Alert color="yellow" variant="light" p="xs">
          The server&apos;s latest tool list was rejected; this is the last good definition.
        </Alert>
      )}
      {tool.appOnly && (
        <Text size="sm" c="dimmed">
          App-only: the server marked this tool as not meant for the model.
        </Text>
      )}
      {tool.ui?.resourceUri && (
        <Text size="sm" c="dimmed" data-testid="tool-has-app" style={{ overflowWrap: 'anywhere' }}>
          Has an app: its results are shown in{' '}
          <Text span className="sb-mono" inherit>
            {oneLine(tool.ui.resourceUri)}
          </Text>
          , in a sandbox.
        </Text>
      )}
      <LostSecretBanner tool={tool} />
      {tool.pin === 'changed' && <PinBanner tool={tool} onApprove={onApprove} {...(approving !== undefined ? { approving } : {})} />}
      <Box component="section" aria-label="Call" data-testid="tool-call-slot" data-callable={callable ? 'true' : 'false'}>
        {callable ? (
          callArea
        ) : (
          <Text size="sm" c="dimmed">
            {tool.unavailable
              ? 'Calling is disabled until the lost secret is entered again and the launch approved.'
              : 'Calling is disabled until the new definition is approved.'}
          </Text>
        )}
      </Box>
      <Accordion multiple variant="separated" chevronPosition="left" mt="sm">
        <Accordion.Item value="hints">
          <Accordion.Control>Hints from the server</Accordion.Control>
          <Accordion.Panel>
            <Text size="xs" c="dimmed" mb="xs">
              Annotations are claims made by the server, not verified and not permissions.
            </Text>
            {hints.length === 0 && !tool.annotations.title ? (
              <Text size="sm" c="dimmed">
                None given.
              </Text>
            ) : (
              <List size="sm" aria-label="Hints from the server">
                {hints.map((h) => (
                  <List.Item key={h.key}>
                    {h.label}: {tool.annotations[h.key] ? 'yes' : 'no'}
                  </List.Item>
                ))}
                {tool.annotations.title && <List.Item>Title hint: {oneLine(tool.annotations.title)}</List.Item>}
              </List>
            )}
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="names">
          <Accordion.Control>Names</Accordion.Control>
          <Accordion.Panel>
            <Stack gap={4}>
              <Text size="sm">
                Local name:{' '}
                <Text span className="sb-mono" inherit>
                  {tool.name}
                </Text>
              </Text>
              <Text size="sm">
                Name on the server:{' '}
                <Text span className="sb-mono" inherit>
                  {oneLine(tool.originalName)}
                </Text>
              </Text>
              <Text size="sm">
                Server: {oneLine(serverName)}{' '}
                <Text span className="sb-mono" c="dimmed" inherit>
                  ({tool.serverId})
                </Text>
              </Text>
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="input-schema">
          <Accordion.Control>Input schema</Accordion.Control>
          <Accordion.Panel>
            {tool.schemaOmitted && (
              <Text size="sm" c="dimmed" mb="xs">
                The schema was over the size budget and is not shown.
              </Text>
            )}
            <CodeBlock maxHeight={420} aria-label="Input schema">
              {prettyJson(tool.inputSchema)}
            </CodeBlock>
          </Accordion.Panel>
        </Accordion.Item>
        {tool.outputSchema && (
          <Accordion.Item value="output-schema">
            <Accordion.Control>Output schema</Accordion.Control>
            <Accordion.Panel>
              <CodeBlock maxHeight={420} aria-label="Output schema">
                {prettyJson(tool.outputSchema)}
              </CodeBlock>
            </Accordion.Panel>
          </Accordion.Item>
        )}
      </Accordion>
    </Stack>
  );
}
