// The capability groups directory: one card per server, led by the server's name, with its description, how many
// of its tools are callable, the event types it offers, its instructions (untrusted) and a way to show only its tools.
import { Accordion, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import type { GroupCard } from '../../../../shared/domains/catalog';
import { formatRoute, routes } from '../../router/route';
import { useStore } from '../../store';
import { CodeBlock } from '../../ui/CodeBlock';
import { countLabel } from '../../ui/count';
import { cleanText, oneLine } from '../../ui/text';
import { selectServerName } from '../../store/servers-slice';
import { lostLine } from '../tools/ToolList';

function Card({ g, onPick }: { g: GroupCard; onPick: (serverId: string) => void }) {
  const name = useStore(selectServerName(g.serverId));
  const titleId = `group-title-${g.serverId}`;
  const subtitle = oneLine(g.title) !== oneLine(name) ? oneLine(g.title) : null;
  return (
    <Paper component="li" withBorder p="sm" aria-labelledby={titleId} style={{ listStyle: 'none' }}>
      <Stack gap={6}>
        <div>
          <Title order={3} size="h5" id={titleId}>
            {oneLine(name)}
          </Title>
          {subtitle && (
            <Text size="xs" c="dimmed">
              {subtitle}
            </Text>
          )}
        </div>
        <Text size="sm" lineClamp={3}>
          {cleanText(g.description)}
        </Text>
        <Group gap="xs" justify="space-between">
          <Text size="sm" fw={500} data-testid={`group-count-${g.serverId}`}>
            {countLabel(g.memberCount, 'callable tool', 'callable tools', 'No callable tools')}
            {g.toolCount !== g.memberCount ? ` of ${g.toolCount.toLocaleString('en')}` : ''}
          </Text>
          <Button size="xs" variant="subtle" leftSection={<IconFilter size={14} aria-hidden />} onClick={() => onPick(g.serverId)}>
            Show its tools
          </Button>
        </Group>
        {g.eventTypeCount !== undefined && (
          <Text size="sm" lineClamp={2}>
            <Anchor href={formatRoute(routes.servers(g.serverId, 'events'))} underline="always" data-testid={`group-events-${g.serverId}`}>
              {countLabel(g.eventTypeCount, 'event type')}
            </Anchor>
            {(g.eventTypes ?? []).length > 0 &&
              `: ${(g.eventTypes ?? []).map((n) => oneLine(n)).join(', ')}${g.eventTypeCount > (g.eventTypes?.length ?? 0) ? ', …' : ''}`}
          </Text>
        )}
        {g.unavailable && (
          <Badge color="red" variant="light" tt="none" role="status" data-testid={`group-unavailable-${g.serverId}`}>
            {lostLine(g.unavailable.missingSecrets)}
          </Badge>
        )}
        {g.stale && (
          <Badge color="yellow" variant="light" tt="none" role="status">
            Stale: {oneLine(g.stale.reason)}
          </Badge>
        )}
        {g.instructions && (
          <Accordion variant="default" chevronPosition="left">
            <Accordion.Item value="instructions">
              <Accordion.Control>Instructions from the server (untrusted)</Accordion.Control>
              <Accordion.Panel>
                <CodeBlock maxHeight={200} aria-label="Instructions from the server" data-testid={`group-instructions-${g.serverId}`}>
                  {g.instructions}
                </CodeBlock>
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
        )}
      </Stack>
    </Paper>
  );
}

/** The directory. */
export function GroupsDirectory({ groups, onPick }: { groups: GroupCard[]; onPick: (serverId: string) => void }) {
  if (groups.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No server has published tools yet. Connect a server to see its tools here.
      </Text>
    );
  return (
    <SimpleGrid component="ul" cols={{ base: 1, sm: 2, xl: 3 }} spacing="sm" aria-label="Capability groups" m={0} p={0}>
      {groups.map((g) => (
        <Card key={g.id} g={g} onPick={onPick} />
      ))}
    </SimpleGrid>
  );
}
